// Says out loud when the page's game has stopped: its kernel died, was shut down after a long
// idle time, or the server went away.  The server answers /payme/api/alive/<kernel id>
// (payme.app.budget) without counting the question as activity; the page asks every few
// seconds and, once the answer is "gone" (or the server does not answer twice in a row),
// shows one message with a reload button.  The state of a page lives in its URL, so a reload
// brings it back.
(function () {
  "use strict";
  var POLL_MS = 5000;
  var config = document.getElementById("jupyter-config-data");
  if (!config) {
    return;
  }
  var data = JSON.parse(config.textContent || "{}");
  if (!data.kernelId) {
    return;
  }
  var base = data.baseUrl || "/";
  var url = base + "payme/api/alive/" + encodeURIComponent(data.kernelId);
  var misses = 0;
  var timer = null;

  function showLost() {
    if (document.getElementById("payme-connection-lost")) {
      return;
    }
    window.clearInterval(timer);
    var box = document.createElement("div");
    box.id = "payme-connection-lost";
    box.className = "payme-connection-lost";
    box.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = "The connection to the game was lost — reload to continue.";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Reload";
    button.addEventListener("click", function () {
      window.location.reload();
    });
    box.appendChild(text);
    box.appendChild(button);
    document.body.insertBefore(box, document.body.firstChild);
  }

  function check() {
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) {
          // No such endpoint (Voilà as a Jupyter Server extension, e.g. on Binder): stop
          // asking rather than call a live game lost.
          window.clearInterval(timer);
          return { alive: true };
        }
        return response.json();
      })
      .then(function (answer) {
        misses = 0;
        if (answer.alive === false) {
          showLost();
        }
      })
      .catch(function () {
        // The server itself does not answer (stopped, or the network is down).
        misses += 1;
        if (misses >= 2) {
          showLost();
        }
      });
  }

  timer = window.setInterval(check, POLL_MS);
})();
