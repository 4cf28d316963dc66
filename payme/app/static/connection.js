// Says out loud when the page's game has stopped: its kernel died, was shut down after a long
// idle time, or the server went away.  The server answers /payme/api/alive/<kernel id>
// (payme.app.budget) without counting the question as activity (except before the page's
// websocket has connected: then it keeps the kernel waiting for it); the page asks every few
// seconds and, once the answer is "gone" (or the server does not answer twice in a row),
// shows one message with a reload button.  The state of a page lives in its URL, so a reload
// brings it back.
// It also says so when the page was sent but none of its controls showed up within a minute
// of loading (the page's outputs went missing on the way): the visitor is not left looking at
// "Setting up the page…" for ever.
(function () {
  "use strict";
  var POLL_MS = 5000;
  // Until the server has had a first answer from the page, it asks twice a second: the server
  // gives back the kernel of a page that stays silent a few seconds after it was sent (a
  // client that does not run pages; payme.app.budget).
  var FIRST_POLL_MS = 500;
  var heard = false;
  var asking = false;
  // How long after the page has loaded its first control may take (a busy machine takes
  // 10-20 s); a test may shorten it.
  var STALL_MS = window.paymeStallMs || 60000;
  var url = null;
  var misses = 0;
  var timer = null;

  // The page's kernel, from the page's Jupyter settings once they have arrived (this script
  // runs from the page's head, before them, so that the server hears from the page as soon as
  // the page is sent, even when the browser is slow to run Voilà's scripts).
  function aliveUrl() {
    if (url === null) {
      var config = document.getElementById("jupyter-config-data");
      var data = null;
      try {
        data = config && JSON.parse(config.textContent || "");
      } catch (error) {
        return null; // still arriving
      }
      if (data && data.kernelId) {
        url = (data.baseUrl || "/") + "payme/api/alive/" + encodeURIComponent(data.kernelId);
      }
    }
    return url;
  }

  function showLost() {
    window.clearInterval(timer);
    showProblem("payme-connection-lost", "The connection to the game was lost — reload to continue.");
  }

  function showProblem(id, message) {
    if (document.getElementById(id)) {
      return;
    }
    var box = document.createElement("div");
    box.id = id;
    box.className = "payme-connection-lost";
    box.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = message;
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
    if (aliveUrl() === null) {
      return;
    }
    asking = true;
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        asking = false;
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
        heard = true;
        if (answer.alive === false) {
          showLost();
        }
      })
      .catch(function () {
        // The server itself does not answer (stopped, or the network is down).
        asking = false;
        misses += 1;
        if (misses >= 2) {
          showLost();
        }
      });
  }

  // A control has shown, or the page is the landing page, which has none.
  function rendered() {
    return document.querySelector("#rendered_cells .jupyter-widgets, #rendered_cells .payme-landing") !== null;
  }

  // A page of the app's notebooks (it has a kernel) with no control a while after loading.
  // Should the controls still come (a very slow machine), the message goes again.
  function checkStalled() {
    if (aliveUrl() === null || rendered()) {
      return;
    }
    showProblem("payme-page-stalled", "This page did not finish loading — reload to try again.");
    var watch = window.setInterval(function () {
      var box = document.getElementById("payme-page-stalled");
      if (rendered() && box) {
        box.remove();
        window.clearInterval(watch);
      }
    }, 1000);
  }

  window.addEventListener("load", function () {
    window.setTimeout(checkStalled, STALL_MS);
  });
  timer = window.setInterval(check, POLL_MS);
  // Until the page's websocket connects (slow on a busy machine), the question tells the
  // server that the page is there, so its kernel is kept (payme.app.budget).
  check();
  var first = window.setInterval(function () {
    if (heard) {
      window.clearInterval(first);
    } else if (!asking) {
      check();
    }
  }, FIRST_POLL_MS);
})();
