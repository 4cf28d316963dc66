// The game review board (payme/widgets/review.py): the summary, the chart, and the position
// at each decision, stepped with the buttons or the arrow keys.  Everything shown comes from
// the synced `data` (the review's numbers) and `faces` (card SVGs): nothing is worked out here.

// el(): dom.js, put before this script (payme/widgets/scripts.py).

const GRADE_WORDS = {
  best: "Best",
  good: "Good",
  inaccuracy: "Inaccuracy",
  mistake: "Mistake",
  blunder: "Blunder",
};

function render({ model, el: host }) {
  const root = el("div", { class: "pm-rv", tabindex: "0", "aria-label": "Game review" });
  host.append(root);
  let index = 0;
  let shownId = null;
  let stepped = false; // whether the player chose a decision in this review

  const card = (key, marks = []) => {
    const face = (model.get("faces") || {})[key];
    const node = el("span", {
      class: ["pm-rv-card", ...marks.map((m) => "pm-rv-" + m)].join(" "),
      "data-card": key,
      title: face ? face[1] : key,
      role: "img",
      "aria-label": (face ? face[1] : key) + (marks.length ? " (" + marks.join(", ") + ")" : ""),
    });
    if (face) node.innerHTML = face[0];
    else node.textContent = key;
    return node;
  };
  const row = (keys, markOf = () => []) => {
    const used = { yours: [], best: [] };
    return el("div", { class: "pm-rv-cards" }, keys.map((k) => card(k, markOf(k, used))));
  };

  function summary(data) {
    const unit = data.unit === "points" ? "points" : "% win chance";
    const head = el("tr", {}, el("th", { scope: "col", text: "Hand" }),
      data.grades.map((g) => el("th", { scope: "col", class: "pm-rv-g-" + g, text: GRADE_WORDS[g] })),
      el("th", { scope: "col", text: "Lost (" + unit + ")" }));
    const rows = data.per_hand.map((r) =>
      el("tr", {}, el("td", { text: String(r.hand) }),
        data.grades.map((g) => el("td", { text: String(r[g]) })),
        el("td", { text: String(r.lost) })));
    const total = el("tr", { class: "pm-rv-total" }, el("td", { text: "All" }),
      data.grades.map((g) => el("td", { text: String(data.totals[g]) })),
      el("td", { text: String(data.lost) }));
    return el("div", { class: "pm-rv-summary" },
      el("p", { class: "pm-rv-stick", text: "Every move is measured by " + data.yardstick +
        "; a move is charged only when the strongest bot's is better by more than the " +
        "measure's error." }),
      el("div", { class: "pm-rv-scroll" },
        el("table", { class: "pm-rv-grades" }, el("thead", {}, head), el("tbody", {}, rows, total))),
      el("div", { class: "pm-rv-chart", html: data.chart }));
  }

  function board(d) {
    const b = d.board;
    // Mark each card of your move and of the best move once (copies count).
    const markOf = (key, used) => {
      const marks = [];
      for (const who of ["yours", "best"]) {
        const want = d[who].cards.filter((k) => k === key).length;
        const had = used[who].filter((k) => k === key).length;
        if (d[who].place === "hand" && had < want) {
          marks.push(who);
          used[who].push(key);
        }
      }
      return marks;
    };
    const place = (name) => {
      const marks = [];
      if (d.yours.place === name) marks.push("yours");
      if (d.best.place === name) marks.push("best");
      return marks.length ? " pm-rv-" + marks.join(" pm-rv-") : "";
    };
    const seats = el("div", { class: "pm-rv-seats" }, b.seats.map((s) =>
      el("div", { class: "pm-rv-seat" },
        el("span", { class: "pm-rv-name",
          text: s.name + ": " + (s.out ? "went out" : s.count + " card" + (s.count === 1 ? "" : "s")) }),
        s.taken.length ? el("span", { class: "pm-rv-took", text: " took from the pile " }) : null,
        s.taken.length ? row(s.taken) : null)));
    const middle = el("div", { class: "pm-rv-middle" },
      el("div", { class: "pm-rv-stock" + place("stock") },
        el("span", { class: "pm-rv-label", text: "Stock" + (b.stock === null ? "" : " (" + b.stock + ")") })),
      el("div", { class: "pm-rv-pile" + place("pile") },
        el("span", { class: "pm-rv-label", text: "Pile (" + b.pile_size + ")" }),
        row(b.pile)));
    const melds = b.melds.length
      ? el("div", { class: "pm-rv-melds" }, el("span", { class: "pm-rv-label", text: "Melds on the table" }),
          el("div", { class: "pm-rv-meldrow" }, b.melds.map((m) => row(m))))
      : null;
    const hand = el("div", { class: "pm-rv-hand" }, el("span", { class: "pm-rv-label", text: "Your hand" }),
      row(b.hand, markOf));
    const legend = el("p", { class: "pm-rv-legend" },
      el("span", { class: "pm-rv-key pm-rv-yours", text: "your move" }), " ",
      el("span", { class: "pm-rv-key pm-rv-best", text: "best move" }));
    let layouts = null;
    if (d.layouts) {
      const side = (title, melds, spots) => el("div", { class: "pm-rv-layout" },
        el("span", { class: "pm-rv-label", text: title }),
        el("div", { class: "pm-rv-meldrow" }, melds.map((m) => row(m))),
        el("span", { class: "pm-rv-label", text: spots.length
          ? "Leaves a place for " + spots.length + " unseen card" + (spots.length === 1 ? "" : "s") + ":"
          : "Leaves no place to lay off an unseen card" }),
        spots.length ? row(spots) : null);
      layouts = el("div", { class: "pm-rv-layouts" },
        side("Your layout", d.layouts[0], d.spots[0]),
        side("The bot's layout", d.layouts[1], d.spots[1]));
    }
    return el("div", { class: "pm-rv-board" }, seats, middle, melds, hand, layouts, legend);
  }

  function draw() {
    const data = model.get("data") || {};
    const decisions = data.decisions || [];
    // A review opens at its costliest decision, and follows it while the costs are refined
    // (measured further) until the player steps to another one.
    if (data.id !== shownId || !stepped) {
      if (data.id !== shownId) stepped = false;
      shownId = data.id;
      index = Math.min(Math.max(0, data.start || 0), Math.max(0, decisions.length - 1));
    }
    index = Math.min(index, Math.max(0, decisions.length - 1));
    root.replaceChildren();
    if (!decisions.length) {
      root.append(el("p", { text: "No decisions to review yet." }));
      return;
    }
    const d = decisions[index];
    const prev = el("button", { class: "pm-rv-prev", type: "button", "aria-label": "Previous decision",
      disabled: index === 0, onclick: () => step(-1) }, "◀ Previous");
    const next = el("button", { class: "pm-rv-next", type: "button", "aria-label": "Next decision",
      disabled: index === decisions.length - 1, onclick: () => step(1) }, "Next ▶");
    const where = el("span", { class: "pm-rv-where", "aria-live": "polite",
      text: "Decision " + (index + 1) + " of " + decisions.length + " — hand " + d.hand + ", turn " + d.turn });
    const nav = el("div", { class: "pm-rv-nav" }, prev, where, next,
      d.link ? el("a", { class: "pm-rv-play", href: "?" + d.link, target: "_blank", rel: "noopener",
        text: "Play on from here" }) : null);
    const word = (x) => x.pending ? "Being measured" : GRADE_WORDS[x.grade];
    const marks = decisions.map((x, i) => el("button", {
      class: "pm-rv-dot pm-rv-g-" + x.grade + (x.pending ? " pm-rv-pending" : "") +
        (i === index ? " pm-rv-here" : ""), type: "button",
      title: "Hand " + x.hand + ", turn " + x.turn + ": " + word(x),
      "aria-label": "Decision " + (i + 1) + ": " + word(x),
      onclick: () => { index = i; stepped = true; draw(); root.focus(); } }));
    root.append(
      summary(data),
      ...(data.progress ? [el("p", { class: "pm-rv-progress", role: "status", text: data.progress })] : []),
      el("div", { class: "pm-rv-dots" }, marks),
      nav,
      el("div", { class: "pm-rv-decision", "data-index": String(index), "data-grade": d.grade,
        "data-pending": d.pending ? "true" : "false" },
        el("p", { class: "pm-rv-headline" },
          el("span", { class: "pm-rv-badge pm-rv-g-" + d.grade + (d.pending ? " pm-rv-pending" : ""),
            text: d.pending ? "Measuring…" : GRADE_WORDS[d.grade] }), " ",
          el("span", { text: d.headline })),
        d.agrees ? null : el("p", { class: "pm-rv-explanation", text: d.explanation }),
        board(d)),
    );
  }

  function step(delta) {
    const decisions = (model.get("data") || {}).decisions || [];
    const to = Math.min(Math.max(0, index + delta), decisions.length - 1);
    stepped = true;
    if (to !== index) {
      index = to;
      draw();
    }
    root.focus();
  }

  root.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      step(event.key === "ArrowLeft" ? -1 : 1);
    }
  });
  model.on("change:data", draw);
  model.on("change:faces", draw);
  draw();
}

export default { render };
