// The card table: draws a card game's table from the small JSON state the Python side syncs
// (payme/widgets/table.py documents its fields) and sends the player's gestures back as
// {do: ...} messages.  Nothing here knows the rules: what may be clicked comes from the state.

const SORTS = { suit: "SHDC", rank: "A23456789TJQK" };
// How long each bot action stays on screen; the player's choice is kept in the browser.
const SPEEDS = { slow: 800, normal: 450, fast: 250, instant: 0 };
const SPEED_KEY = "payme-bot-speed";

function savedSpeed() {
  try {
    const saved = window.localStorage.getItem(SPEED_KEY);
    return saved in SPEEDS ? saved : "normal";
  } catch (_error) {
    return "normal"; // storage refused (private mode): the default
  }
}

// el(): dom.js, put before this script (payme/widgets/scripts.py).

// A face key is "7H", "JK~wild" or "JK~wild~6H": the token comes first.
const tokenOf = (key) => key.split("~")[0];

// "South-West" -> "SW": a seat's compass name in letters, for a crowded phone table.
const shortName = (name) => name.split(/[-\s]/).map((word) => word[0]).join("");

function sortKey(token, by) {
  const rank = token.length === 2 ? SORTS.rank.indexOf(token[0]) : 99;
  const suit = token.length === 2 ? SORTS.suit.indexOf(token[1]) : 9;
  return by === "rank" ? rank * 10 + suit : suit * 100 + rank;
}

// Keep the player's own order of the hand when the hand changes: cards still held stay where
// they were (copies counted), new cards go to the right.
function mergeOrder(previous, hand) {
  const left = new Map();
  for (const key of hand) left.set(key, (left.get(key) || 0) + 1);
  const kept = [];
  for (const key of previous) {
    if (left.get(key)) {
      kept.push(key);
      left.set(key, left.get(key) - 1);
    }
  }
  const added = [];
  for (const key of hand) {
    if (left.get(key)) {
      added.push(key);
      left.set(key, left.get(key) - 1);
    }
  }
  return kept.concat(added);
}

function render({ model, el: host }) {
  const root = el("div", { class: "pm-table", "data-busy": "false" });
  // What the bots did, said to screen readers: outside the redrawn table, so a screen
  // reader hears each change once.
  const live = el("div", { class: "pm-live", role: "log", "aria-live": "polite", "aria-relevant": "additions text" });
  host.append(root, live);
  const ui = {
    order: [],
    selected: null, // index into ui.order
    arrangeSel: null, // [group, index] picked in the arrangement step
    anim: null,
    shownSerial: -1,
    deal: null,
    speed: savedSpeed(),
    last: {}, // seat -> what it did in the round being shown
  };

  const state = () => model.get("state") || {};
  const faces = () => model.get("faces") || {};

  function send(message) {
    if (state().mode === "view") return; // a position shown for looking only
    ui.notice = null;
    finishAnimation();
    root.dataset.busy = "true";
    model.send(message);
  }

  // The player's own order of the hand: the page keeps it in its address.
  function sendOrder() {
    if (state().mode === "view") return;
    model.send({ do: "order", cards: ui.order.map(tokenOf) });
  }

  function face(key, extra = {}) {
    const [svg, name] = faces()[key] || ["", tokenOf(key)];
    const holder = el("span", { class: "pm-face", "aria-hidden": "true" });
    holder.innerHTML = svg;
    return [holder, name, extra];
  }

  function cardImg(key, cls = "") {
    const [holder, name] = face(key);
    const wrap = el("span", { class: `pm-card ${cls}`, role: "img", "aria-label": name, title: name });
    wrap.append(holder);
    return wrap;
  }

  // "34 points · −$0.40": each part kept whole when the line wraps.
  function scoreText(text) {
    const span = el("span", { class: "pm-score" });
    text.split(" · ").forEach((part, i) => {
      if (i) span.append(" · ");
      span.append(el("span", { class: "pm-nowrap", text: part }));
    });
    return span;
  }

  function backs(count, max = 10) {
    const fan = el("span", { class: "pm-fan", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(count, max); i++) fan.append(el("span", { class: "pm-back" }));
    return fan;
  }

  // ---------------------------------------------------------------- sections

  function seatBox(seat, view) {
    const box = el("section", {
      class: "pm-seat" + (seat.turn ? " pm-turn" : "") + (seat.out ? " pm-out" : ""),
      "data-seat": seat.seat,
      "aria-label": `${seat.name}, ${seat.count} cards`,
    });
    box.append(
      el(
        "div",
        { class: "pm-seat-name" },
        el("b", { class: "pm-name", "data-short": shortName(seat.name), title: seat.name, text: seat.name }),
        seat.who ? el("span", { class: "pm-who" }, el("span", { class: "pm-dot", text: " · " }), seat.who) : null,
        seat.turn ? el("span", { class: "pm-turn-mark", text: " ◀ to play" }) : null,
      ),
    );
    if (seat.shown && seat.shown.length) {
      const row = el("div", { class: "pm-shown" });
      for (const key of seat.shown) row.append(cardImg(key, "pm-small"));
      box.append(row);
    } else {
      box.append(backs(view.count ?? seat.count));
    }
    box.append(
      el(
        "div",
        { class: "pm-seat-info" },
        seat.note ? el("span", { class: "pm-note", text: seat.note }) : el("span", { class: "pm-count", text: `${view.count ?? seat.count} cards` }),
        seat.score ? scoreText(seat.score) : null,
      ),
    );
    const last = lastMove(seat);
    box.append(el("div", { class: "pm-last", "data-seat": seat.seat, title: last, text: last }));
    return box;
  }

  // A seat's last move: what the animation has shown of this round so far, else the
  // state's own sentence ("took 9♥ from the pile, discarded 4♣").
  function lastMove(seat) {
    if (ui.anim && ui.last[seat.seat]) return ui.last[seat.seat];
    return seat.last || ui.last[seat.seat] || "";
  }

  // The places a selected wild card could take on a run (its two ends): one button each.
  function placeButton(meld, card, place) {
    const [, cardName] = faces()[card] ? faces()[card] : ["", tokenOf(card)];
    const words = `Lay ${cardName} off as ${place.name}, at the ${place.end} of meld ${meld.number}`;
    return el(
      "button",
      {
        type: "button",
        class: `pm-place pm-place-${place.end.split(" ")[0]}`,
        "data-place": place.card,
        "data-focus": `place-${meld.id}-${place.card}`,
        "aria-label": words,
        title: `${words}: whoever lays off a wild card chooses which card it stands for`,
        onclick: () => layOffOnto(meld.id, place.card),
      },
      place.end.startsWith("low") ? `◀ as ${place.name}` : `as ${place.name} ▶`,
    );
  }

  function meldBox(meld, s) {
    const layoff = s.mode === "lay_off" && ui.selected !== null;
    const selected = layoff ? ui.order[ui.selected] : null;
    const places = meld.target && selected && meld.places ? meld.places[tokenOf(selected)] || [] : [];
    const attrs = {
      class: "pm-meld" + (meld.target && layoff ? " pm-target" : "") + (places.length > 1 ? " pm-choose" : ""),
      "data-meld": meld.id,
      "aria-label": `Meld ${meld.number}: ${meld.label}`,
    };
    if (places.length > 1) {
      // The player names the wild card's place: the low end or the high end of the run.
      const box = el("div", { ...attrs, role: "group", "aria-label": `Meld ${meld.number}: ${meld.label}. Choose where the wild card goes` });
      box.append(el("span", { class: "pm-meld-number", text: `${meld.number}`, "aria-hidden": "true" }));
      const row = el("span", { class: "pm-meld-cards" });
      for (const place of places.filter((p) => p.end.startsWith("low"))) row.append(placeButton(meld, selected, place));
      meld.cards.forEach((key) => row.append(cardImg(key, "pm-small")));
      for (const place of places.filter((p) => !p.end.startsWith("low"))) row.append(placeButton(meld, selected, place));
      box.append(row);
      box.append(el("span", { class: "pm-meld-label", text: meld.label }));
      return box;
    }
    const box = meld.target
      ? el("button", {
          ...attrs,
          type: "button",
          "aria-label": `Meld ${meld.number}: ${meld.label}. Lay the selected card off here`,
          onclick: () => layOffOnto(meld.id),
        })
      : el("div", { ...attrs, role: "group" });
    box.append(el("span", { class: "pm-meld-number", text: `${meld.number}`, "aria-hidden": "true" }));
    const row = el("span", { class: "pm-meld-cards" });
    meld.cards.forEach((key, i) => {
      const by = meld.laid && meld.laid[i];
      const card = cardImg(key, "pm-small" + (by ? " pm-laid" : ""));
      if (by) card.append(el("span", { class: "pm-laid-by", text: by }));
      row.append(card);
    });
    box.append(row);
    box.append(el("span", { class: "pm-meld-label", text: meld.label }));
    return box;
  }

  function centre(s, view) {
    const mid = el("div", { class: "pm-centre" });
    const stock = s.stock || {};
    const stockButton = el(
      "button",
      {
        type: "button",
        class: "pm-stock" + (stock.can ? " pm-can" : ""),
        "data-focus": "stock",
        "aria-label": `Stock, ${view.stock ?? stock.text}. ${stock.can ? "Draw from the stock" : ""}`,
        "aria-disabled": stock.can ? null : "true",
        onclick: () => clickPile("stock"),
      },
      el("span", { class: "pm-stack", "aria-hidden": "true" }, el("span", { class: "pm-back" }), el("span", { class: "pm-back" })),
      el("span", { class: "pm-pile-text" }, el("b", { text: "Stock" }), el("br"), view.stock ?? stock.text),
    );
    const pile = s.pile || {};
    const top = view.top !== undefined ? view.top : pile.top;
    const pileButton = el(
      "button",
      {
        type: "button",
        class: "pm-pile" + (pile.can ? " pm-can" : ""),
        "data-focus": "pile",
        "aria-label": top
          ? `Discard pile, ${(faces()[top] || ["", top])[1]} on top. ${pile.can ? "Take it" : ""}`
          : "Discard pile, empty",
        "aria-disabled": pile.can ? null : "true",
        onclick: () => clickPile("discard"),
      },
      top ? cardImg(top) : el("span", { class: "pm-empty", text: "empty" }),
      el("span", { class: "pm-pile-text" }, el("b", { text: "Discard pile" })),
    );
    mid.append(el("div", { class: "pm-piles" }, stockButton, pileButton));
    if (s.melds && s.melds.length) {
      const groups = el("div", { class: "pm-melds" });
      const owners = [];
      for (const meld of s.melds) if (!owners.includes(meld.owner)) owners.push(meld.owner);
      for (const owner of owners) {
        const group = el("div", { class: "pm-meld-group", role: "group", "aria-label": `Melds of ${owner}` });
        group.append(el("div", { class: "pm-meld-owner", text: owner === "You" ? "Your melds" : `${owner}'s melds` }));
        for (const meld of s.melds.filter((m) => m.owner === owner)) group.append(meldBox(meld, s));
        groups.append(group);
      }
      mid.append(groups);
    }
    return mid;
  }

  function handRow(s) {
    const row = el("div", {
      class: "pm-hand",
      role: "listbox",
      "aria-label": "Your hand. Arrow keys move between cards, Shift with an arrow moves a card, Enter selects it and Enter again discards it",
      "aria-orientation": "horizontal",
    });
    const wild = new Set(s.you.wild || []);
    ui.order.forEach((key, i) => {
      const [holder, name] = face(key);
      const chosen = ui.selected === i;
      const parts = [name];
      if (wild.has(key)) parts.push("wild this hand");
      if (s.you.drawn === key) parts.push("just drawn");
      if (chosen) parts.push("selected");
      const card = el(
        "button",
        {
          type: "button",
          role: "option",
          class: "pm-hand-card" + (chosen ? " pm-selected" : "") + (s.you.drawn === key ? " pm-drawn" : ""),
          "aria-selected": chosen ? "true" : "false",
          "aria-label": parts.join(", "),
          "data-card": tokenOf(key),
          "data-index": i,
          "data-focus": `card-${i}`,
          title: parts.join(", "),
        },
        holder,
      );
      attachCardGestures(card, i);
      row.append(card);
    });
    return row;
  }

  function controls(s) {
    const can = s.can || {};
    const bar = el("div", { class: "pm-controls", role: "toolbar", "aria-label": "Moves" });
    const button = (key, text, ok, onclick, title) =>
      el("button", {
        type: "button",
        class: `pm-btn pm-do-${key}`,
        "data-focus": `do-${key}`,
        disabled: !ok,
        title: title || text,
        onclick,
        text,
      });
    const selectedCard = () => (ui.selected === null ? null : tokenOf(ui.order[ui.selected]));
    if (s.mode === "lay_off") {
      bar.append(
        button("lay-off-done", s.pending ? "Done laying off" : "Lay off nothing", can.lay_off, () => send({ do: "lay_off_done" }), "Finish your lay-offs"),
        button("lay-off-best", "Lay off the best", can.lay_off, () => send({ do: "lay_off_best" }), "Lay off whatever leaves you the fewest points"),
        button("lay-off-undo", "Undo", !!s.pending, () => send({ do: "lay_off_undo" }), "Take back your lay-offs"),
      );
    } else if (s.mode === "play") {
      bar.append(
        button("discard", "Discard", can.discard, () => {
          const card = selectedCard();
          if (card === null) return notice("Select a card of your hand first.", "hand");
          send({ do: "discard", card, index: ui.selected });
        }),
        button("go-out", s.go_out_word || "Go out", can.go_out, () => send({ do: "go_out", card: selectedCard(), index: ui.selected }), s.go_out_title || "Go out: lay all your cards down in melds, discarding the selected card"),
      );
      if (can.undo) bar.append(button("undo", "Undo", true, () => send({ do: "undo" }), "Take back your last move (the bots' replies to it go too)"));
      if (can.rummy) bar.append(button("rummy", "Lay down both RUMMY cards", true, () => send({ do: "rummy" })));
      if (can.drop_out) {
        const last = s.phase === "final_go_out";
        bar.append(
          button("drop-out", last ? "Pass" : "Drop out", true, () => send({ do: "drop_out" }),
            last ? "Pass: you cannot go out on this last turn, so the game ends without you winning" : s.drop_out_title || "Drop out: leave this game; your cards leave play unseen"),
        );
      }
    }
    if (s.mode === "view") {
      bar.append(
        button("sort-suit", "Sort by suit", ui.order.length > 1, () => sortHand("suit")),
        button("sort-rank", "Sort by rank", ui.order.length > 1, () => sortHand("rank")),
      );
      return bar; // a position to look at: nothing to play
    }
    if (can.next_hand) bar.append(button("next-hand", "Next hand", true, () => send({ do: "next_hand" }), "Deal the next hand"));
    bar.append(button("hint", "Hint", can.hint, () => send({ do: "hint" }), "What would the strongest bot do here, and why?"));
    // One Sort button: by suit, then by rank the next time.
    const by = ui.sortedBy === "suit" ? "rank" : "suit";
    bar.append(button("sort", "Sort", ui.order.length > 1, () => sortHand(by), `Sort your hand by ${by} (or drag a card to place it yourself)`));
    return bar;
  }

  function arrangePanel(s) {
    const a = s.arrange;
    const panel = el("section", { class: "pm-arrange", "aria-label": "Lay out your melds" });
    panel.append(el("h3", { text: "Lay out your melds" }));
    panel.append(
      el("p", {
        class: "pm-help",
        text: "The best layout is proposed. Click a card, then another meld (or New meld) to move it there; ◀ ▶ move it inside its meld, which decides what a wild card at the end of a run stands for.",
      }),
    );
    const groups = el("div", { class: "pm-arrange-groups" });
    a.groups.forEach((group, g) => {
      const box = el("div", {
        class: "pm-arrange-group" + (group.ok ? " pm-ok" : " pm-bad"),
        role: "group",
        "aria-label": `Meld ${g + 1}: ${group.reason}`,
      });
      const row = el("div", { class: "pm-meld-cards" });
      group.cards.forEach((key, i) => {
        const [holder, name] = face(key);
        const picked = ui.arrangeSel && ui.arrangeSel[0] === g && ui.arrangeSel[1] === i;
        row.append(
          el(
            "button",
            {
              type: "button",
              class: "pm-arrange-card" + (picked ? " pm-selected" : ""),
              "aria-pressed": picked ? "true" : "false",
              "aria-label": `${name}, in meld ${g + 1}`,
              "data-focus": `arr-${g}-${i}`,
              "data-card": tokenOf(key),
              onclick: () => {
                ui.arrangeSel = picked ? null : [g, i];
                draw();
              },
              onkeydown: (event) => {
                if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
                  event.preventDefault();
                  ui.arrangeSel = [g, i];
                  shiftInGroup(event.key === "ArrowLeft" ? -1 : 1);
                }
              },
            },
            holder,
          ),
        );
      });
      box.append(row);
      box.append(el("div", { class: "pm-reason", text: (group.ok ? "✔ " : "✖ ") + group.reason }));
      if (ui.arrangeSel && ui.arrangeSel[0] !== g) {
        box.append(el("button", { type: "button", class: "pm-btn pm-move-here", "data-focus": `here-${g}`, text: `Move here`, onclick: () => moveTo(g) }));
      }
      groups.append(box);
    });
    panel.append(groups);
    const tools = el("div", { class: "pm-controls" });
    const btn = (key, text, ok, onclick) => el("button", { type: "button", class: `pm-btn pm-do-${key}`, "data-focus": `do-${key}`, disabled: !ok, text, onclick });
    tools.append(
      btn("left", "◀ Move left", !!ui.arrangeSel, () => shiftInGroup(-1)),
      btn("right", "Move right ▶", !!ui.arrangeSel, () => shiftInGroup(1)),
      btn("new-meld", "New meld", !!ui.arrangeSel, () => moveTo(a.groups.length)),
      btn("best", "Best layout", true, () => send({ do: "arrange_best" })),
      btn("lay-down", `Lay down and discard ${a.discard_name}`, a.ok, () => send({ do: "lay_down", groups: groupsNow() })),
      btn("cancel", "Cancel", true, () => send({ do: "arrange_cancel" })),
    );
    panel.append(tools);
    if (a.problem) panel.append(el("p", { class: "pm-reason pm-bad", role: "alert", text: a.problem }));
    return panel;
  }

  const groupsNow = () => state().arrange.groups.map((g) => g.cards.map(tokenOf));

  function moveTo(target) {
    const groups = groupsNow();
    const [g, i] = ui.arrangeSel;
    const [card] = groups[g].splice(i, 1);
    if (target >= groups.length) groups.push([]);
    groups[target].push(card);
    ui.arrangeSel = null;
    send({ do: "arrange", groups: groups.filter((x) => x.length) });
  }

  function shiftInGroup(step) {
    const groups = groupsNow();
    const [g, i] = ui.arrangeSel;
    const j = i + step;
    if (j < 0 || j >= groups[g].length) return;
    [groups[g][i], groups[g][j]] = [groups[g][j], groups[g][i]];
    ui.arrangeSel = [g, j];
    ui.focus = `arr-${g}-${j}`;
    send({ do: "arrange", groups });
  }

  // ---------------------------------------------------------------- gestures

  function clickPile(source) {
    const s = state();
    send({ do: "draw", source });
    return s;
  }

  function layOffOnto(meld, place = null) {
    if (ui.selected === null) return notice("Select the card to lay off first, then the meld it joins.", "hand");
    const card = tokenOf(ui.order[ui.selected]);
    const message = { do: "lay_off", card, meld, index: ui.selected };
    if (place) message.place = place;
    send(message);
  }

  function clickCard(i) {
    const s = state();
    ui.notice = null;
    if (ui.selected === i) {
      // A second click throws the card; the engine answers with the rule if it may not.
      if (s.mode === "play") {
        send({ do: "discard", card: tokenOf(ui.order[i]), index: i });
        return;
      }
      ui.selected = null;
    } else {
      ui.selected = i;
    }
    ui.focus = `card-${i}`;
    draw();
  }

  function moveCard(from, to) {
    ui.notice = null;
    if (to < 0 || to >= ui.order.length || from === to) return;
    const [key] = ui.order.splice(from, 1);
    ui.order.splice(to, 0, key);
    if (ui.selected === from) ui.selected = to;
    else if (ui.selected !== null) {
      if (from < ui.selected && to >= ui.selected) ui.selected -= 1;
      else if (from > ui.selected && to <= ui.selected) ui.selected += 1;
    }
    ui.focus = `card-${to}`;
    draw();
    sendOrder();
  }

  function sortHand(by) {
    const chosen = ui.selected === null ? null : ui.order[ui.selected];
    ui.order.sort((a, b) => sortKey(tokenOf(a), by) - sortKey(tokenOf(b), by));
    ui.sortedBy = by;
    ui.selected = chosen === null ? null : ui.order.indexOf(chosen);
    draw();
    sendOrder();
  }

  function attachCardGestures(card, i) {
    card.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowLeft" ? -1 : event.key === "ArrowRight" ? 1 : 0;
      if (!step) return;
      event.preventDefault();
      if (event.shiftKey || event.altKey) moveCard(i, i + step);
      else {
        const next = root.querySelector(`[data-focus="card-${i + step}"]`);
        if (next) next.focus();
      }
    });
    // Pointer drag to reorder (mouse and touch); a press without movement is a click.
    card.addEventListener("pointerdown", (down) => {
      if (down.button !== 0) return;
      const startX = down.clientX;
      let dragging = false;
      const onMove = (move) => {
        if (!dragging && Math.abs(move.clientX - startX) > 12) {
          dragging = true;
          card.classList.add("pm-dragging");
        }
        if (dragging) card.style.transform = `translateX(${move.clientX - startX}px)`;
      };
      const onUp = (up) => {
        window.removeEventListener("pointermove", onMove);
        window.removeEventListener("pointerup", onUp);
        if (!dragging) return;
        card.dataset.dragged = "true";
        const cards = [...root.querySelectorAll(".pm-hand-card")];
        let to = cards.length - 1;
        for (let k = 0; k < cards.length; k++) {
          if (k === i) continue; // the dragged card itself follows the pointer
          const box = cards[k].getBoundingClientRect();
          if (up.clientX < box.left + box.width / 2) {
            to = k > i ? k - 1 : k;
            break;
          }
        }
        moveCard(i, to);
      };
      window.addEventListener("pointermove", onMove);
      window.addEventListener("pointerup", onUp);
    });
    card.addEventListener("click", () => {
      if (card.dataset.dragged) return;
      clickCard(i);
    });
  }

  // ---------------------------------------------------------------- notices

  function notice(text, anchor) {
    ui.notice = { text, anchor };
    draw();
  }

  function placeNotice() {
    const note = root.querySelector(".pm-notice");
    if (!note || !ui.notice) return;
    const anchor = ui.notice.anchor;
    let target = null;
    if (anchor === "stock" || anchor === "pile") target = root.querySelector(`[data-focus="${anchor}"]`);
    else if (anchor && anchor.startsWith("card-")) target = root.querySelector(`[data-focus="${anchor}"]`);
    else if (anchor && anchor.startsWith("meld-")) target = root.querySelector(`[data-meld="${anchor.slice(5)}"]`);
    else if (anchor === "hand") target = root.querySelector(".pm-hand");
    if (!target) return;
    const box = target.getBoundingClientRect();
    const base = root.getBoundingClientRect();
    const left = Math.max(0, Math.min(box.left - base.left, base.width - 300));
    note.style.left = `${left}px`;
    note.style.top = `${box.bottom - base.top + 4}px`;
    note.classList.add("pm-anchored");
  }

  // ---------------------------------------------------------------- animation

  function finishAnimation() {
    if (!ui.anim) return;
    clearTimeout(ui.anim.timer);
    for (const step of ui.anim.steps.slice(ui.anim.index)) noteStep(step);
    ui.anim = null;
    draw();
  }

  // Each bot action on screen in turn (its seat and the pile it touched lit), at the
  // player's speed; a click ends it at once.  Every seat's last move stays beside it, and
  // the live region says the round's moves in words.
  function startAnimation(steps) {
    if (!steps || !steps.length) return;
    for (const step of steps) if (step.seat !== undefined) delete ui.last[step.seat];
    say(state().said || steps.map((step) => step.text).join(" "));
    const each = SPEEDS[ui.speed] ?? SPEEDS.normal;
    if (!each) {
      for (const step of steps) noteStep(step);
      return;
    }
    ui.anim = { steps, index: 0, timer: null };
    noteStep(steps[0]);
    const tick = () => {
      if (!ui.anim) return;
      ui.anim.index += 1;
      if (ui.anim.index >= steps.length) {
        ui.anim = null;
        draw();
        return;
      }
      noteStep(steps[ui.anim.index]);
      draw();
      ui.anim.timer = setTimeout(tick, each);
    };
    ui.anim.timer = setTimeout(tick, each);
  }

  function noteStep(step) {
    if (step.seat !== undefined) ui.last[step.seat] = step.last || step.text;
  }

  function say(text) {
    if (!text) return;
    live.replaceChildren(el("p", { text }));
  }

  // ---------------------------------------------------------------- drawing

  function speedControl() {
    const select = el("select", {
      class: "pm-speed-select",
      "aria-label": "Speed of the bots' moves",
      title: "How long each bot's move stays on screen (Instant: no animation)",
      onchange: (event) => {
        ui.speed = event.target.value;
        try {
          window.localStorage.setItem(SPEED_KEY, ui.speed);
        } catch (_error) {
          // storage refused: the choice holds for this page
        }
        if (ui.speed === "instant") finishAnimation();
      },
    });
    for (const [value, label] of [["slow", "Slow"], ["normal", "Normal"], ["fast", "Fast"], ["instant", "Instant"]]) {
      select.append(el("option", { value, selected: value === ui.speed, text: label }));
    }
    return el("label", { class: "pm-speed" }, el("span", { class: "pm-speed-word", text: "Bots" }), select);
  }

  function panelBox(s) {
    const panel = el("section", { class: "pm-panel" + (s.panel.kind ? ` pm-panel-${s.panel.kind}` : ""), "aria-label": s.panel.title || "Result" });
    if (s.panel.title) panel.append(el("h3", { text: s.panel.title }));
    const body = el("div", { class: "pm-panel-body" });
    body.innerHTML = s.panel.html; // built by the Python side from escaped text and card SVGs
    // Buttons in the result (New game, Review my game) are gestures like the table's own.
    for (const button of body.querySelectorAll("button[data-do]")) {
      button.addEventListener("click", () => send({ do: button.dataset.do }));
    }
    panel.append(body);
    return panel;
  }

  function draw() {
    const s = state();
    if (!s.you) return;
    const active = document.activeElement;
    const focusKey = ui.focus || (active && root.contains(active) ? active.dataset.focus : null);
    ui.focus = null;
    const step = ui.anim ? ui.anim.steps[ui.anim.index] : null;
    const view = step || {};
    root.replaceChildren();
    root.dataset.phase = s.phase || "";
    root.dataset.mode = s.mode || "";
    root.dataset.serial = String(s.serial ?? "");
    root.dataset.status = s.status || "";
    root.dataset.waiting = s.waiting ? "true" : "false";
    root.dataset.animating = step ? "true" : "false";
    root.dataset.players = String((s.seats || []).length + 1);

    root.append(
      el(
        "header",
        { class: "pm-head" },
        el("div", { class: "pm-title", title: s.title || "", text: s.title || "" }),
        el("div", { class: "pm-status", text: step ? step.text : s.status || "" }),
        s.mode === "view" ? null : speedControl(),
      ),
    );
    if (s.advice) {
      root.append(
        el(
          "div",
          { class: "pm-advice", role: "status" },
          el("span", { text: s.advice }),
          el("button", { type: "button", class: "pm-btn pm-do-hint-off", "data-focus": "do-hint-off", title: "Stop showing a hint after each move", text: "Hide hints", onclick: () => send({ do: "hint_off" }) }),
        ),
      );
    }
    // The result of a hand or of the game comes first: the table under it is done.
    if (s.panel && s.panel.html) root.append(panelBox(s));
    const seats = el("div", { class: "pm-seats" });
    for (const seat of s.seats || []) {
      const seatView = step && step.counts ? { count: step.counts[seat.seat] } : {};
      const box = seatBox(seat, seatView);
      if (step && step.seat === seat.seat) box.classList.add("pm-acting");
      seats.append(box);
    }
    root.append(seats);
    const middle = centre(s, step ? { stock: step.stock, top: step.top } : {});
    if (step && step.pile) {
      const lit = middle.querySelector(step.pile === "stock" ? ".pm-stock" : ".pm-pile");
      if (lit) lit.classList.add("pm-lit");
    }
    root.append(middle);

    if (s.mode === "arrange" && s.arrange) {
      root.append(arrangePanel(s));
    }
    // Your hand and the moves: kept in sight (sticky) while melds or results grow.
    // At the end of the game the hand gives way to the result (it no longer sticks).
    const done = s.panel && s.panel.kind === "final";
    const you = el("section", { class: "pm-you" + (s.you.turn ? " pm-turn" : "") + (done ? " pm-done" : ""), "aria-label": "Your hand" });
    you.append(
      el(
        "div",
        { class: "pm-seat-name" },
        el("b", { text: s.you.name || "You" }),
        el("span", { class: "pm-count", text: ` · ${ui.order.length} cards` }),
        s.you.score ? " · " : null,
        s.you.score ? scoreText(s.you.score) : null,
        s.you.turn ? el("span", { class: "pm-turn-mark", text: " ◀ your turn" }) : null,
      ),
    );
    if (s.mode !== "arrange") you.append(handRow(s));
    you.append(controls(s));
    root.append(you);

    if (s.log && s.log.length) {
      const log = el("details", { class: "pm-log" }, el("summary", { text: "What happened" }));
      const list = el("ol");
      for (const line of s.log) list.append(el("li", { text: line }));
      log.append(list);
      root.append(log);
    }
    if (ui.notice) {
      root.append(el("div", { class: "pm-notice", role: "alert", text: ui.notice.text }));
      requestAnimationFrame(placeNotice);
    }
    if (focusKey) {
      const target = root.querySelector(`[data-focus="${focusKey}"]`);
      if (target) target.focus({ preventScroll: true });
    }
  }

  // The order the page's address keeps, when it holds exactly the cards of the hand.
  function sameCards(a, b) {
    return a.length === b.length && a.map(tokenOf).sort().join() === b.map(tokenOf).sort().join();
  }

  function onState() {
    const s = state();
    if (!s.you) return;
    const hand = s.you.hand || [];
    const before = ui.order.length;
    const chosen = ui.selected === null ? null : ui.order[ui.selected];
    // A new deal takes the dealt order, or the order the address kept; during a hand the
    // player's own order is kept.
    if (s.you.deal !== ui.deal) {
      const kept = (s.you.order || []).map((token) => hand.find((key) => tokenOf(key) === token) || token);
      ui.order = kept.length && sameCards(kept, hand) ? mergeOrder(kept, hand) : hand.slice();
    } else {
      ui.order = mergeOrder(ui.order, hand);
    }
    ui.deal = s.you.deal;
    ui.selected = chosen !== null && ui.order.length === before ? ui.order.indexOf(chosen) : null;
    if (ui.selected === -1) ui.selected = null;
    if (s.mode !== "arrange") ui.arrangeSel = null;
    const fresh = s.serial !== ui.shownSerial;
    ui.shownSerial = s.serial;
    ui.notice = null;
    root.dataset.busy = "false";
    if (fresh && s.anim && s.anim.length) startAnimation(s.anim);
    else if (fresh && s.said) say(s.said);
    draw();
  }

  model.on("change:state", onState);
  model.on("change:faces", draw);
  model.on("msg:custom", (message) => {
    root.dataset.busy = "false";
    if (message && message.notice) notice(message.notice, message.anchor || null);
  });
  onState();
  return () => finishAnimation();
}

export default { render };
