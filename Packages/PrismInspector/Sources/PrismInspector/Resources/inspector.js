// PrismInspector's page: talks to the inspector over the WebSocket next to it (same path, plus
// "socket"), shows the actions it streams, and sends back what the user asks for. Plain
// JavaScript, no dependencies: it must work offline, served by the inspector itself.
"use strict";

(() => {
  const ROW = 24;
  const $ = (id) => document.getElementById(id);

  const model = {
    entries: [],          // every action kept, oldest first: {index, parent, time, duration, name, summary, marker}
    shown: [],            // positions in entries that pass the filter
    filter: "",
    selected: null,       // the selected snapshot's index
    current: null,        // the snapshot the store is at (after a jump), or null
    newest: null,
    recording: true,
    hello: null,
    dropped: 0,
    effects: [],
    actionJSON: null,
    skipped: new Set(),   // the indices of skipped actions
    rangeStart: null,     // with a shift-click, the other end of the selected range
    test: null,           // the last test written: {fileName, source}
    locked: false,
    held: 0,
  };
  let socket = null;
  let switching = false;  // closing the socket to open another store's
  let renderQueued = false;
  let lastAutoSelect = 0;

  // MARK: Connection

  // The store shown: `#store=<id>` in the page's URL (the first store when none).
  function storeID() {
    const match = /store=(\d+)/.exec(location.hash);
    return match ? match[1] : null;
  }

  function connect() {
    const id = storeID();
    const url = "ws://" + location.host + location.pathname.replace(/\/?$/, "/") + "socket" + (id ? "?store=" + id : "");
    socket = new WebSocket(url);
    setStatus("connecting…", "");
    socket.onopen = () => setStatus("live", "live");
    socket.onclose = () => {
      if (switching) {
        switching = false;
        connect();
        return;
      }
      setStatus("disconnected: retrying", "down");
      setTimeout(connect, 2000);
    };
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        note("The inspector sent something that is not JSON.", true);
        return;
      }
      const handler = handlers[message.type];
      if (handler) handler(message);
    };
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  const handlers = {
    hello(message) {
      model.hello = message;
      $("title").textContent = message.title;
      document.title = "PrismInspector: " + message.title;
      $("export").hidden = !message.canExport;
      $("load-label").hidden = !message.canLoad;
      $("sender").hidden = !message.canSendActions;
      setRecording(message.recording);
      setLock(message.locked, message.held);
      model.store = message.store;
      renderStores(message.stores);
    },
    stores(message) {
      renderStores(message.stores);
    },
    actions(message) {
      if (message.reset) {
        model.entries = [];
        model.dropped = 0;
        model.selected = null;
        model.skipped = new Set();
      }
      for (const entry of message.entries) {
        // An action recorded after a jump back replaces the snapshots ahead of its parent.
        if (entry.parent !== null) {
          while (model.entries.length && model.entries[model.entries.length - 1].index > entry.parent) {
            model.entries.pop();
          }
        }
        model.entries.push(entry);
        if (entry.skipped) model.skipped.add(entry.index);
      }
      const limit = model.hello ? model.hello.historyLimit : 1000;
      if (model.entries.length > limit) model.entries.splice(0, model.entries.length - limit);
      if (message.dropped > 0) {
        model.dropped += message.dropped;
        showBanner();
      }
      model.current = message.current;
      model.newest = model.entries.length ? model.entries[model.entries.length - 1].index : null;
      setRecording(message.recording);
      refilter();
      if ($("follow").checked && message.entries.length && model.newest !== null) {
        const now = Date.now();
        if (now - lastAutoSelect > 250) {
          lastAutoSelect = now;
          select(model.newest);
        }
      }
      queueRender(message.entries.length > 0 && $("follow").checked);
    },
    state(message) {
      if (message.index !== model.selected) return;
      renderDetail(message);
    },
    skipped(message) {
      model.skipped = new Set(message.indices);
      // The states after a skipped action changed: show the selected one again.
      if (model.selected !== null) send({ type: "select", index: model.selected });
      updateSkipButton();
      queueRender(false);
    },
    lock(message) {
      setLock(message.locked, message.held);
    },
    test(message) {
      model.test = { fileName: message.fileName, source: message.source };
      $("test-pane").hidden = false;
      $("test-title").textContent = "Test: " + message.fileName;
      $("test-source").value = message.source;
      note("Wrote a test of " + message.actions + (message.actions === 1 ? " action" : " actions") + "." +
        (message.containsSecrets ? " It holds the values shown redacted here, in clear." : ""));
    },
    jumped(message) {
      model.current = message.index;
      queueRender(false);
      note("The store is back at #" + message.index + ".");
    },
    effects(message) {
      model.effects = message.running;
      renderEffects();
    },
    export(message) {
      const blob = new Blob([JSON.stringify(message.data, null, 2)], { type: "application/json" });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = message.fileName;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
      note("Exported " + message.actions + " actions as " + message.fileName + "." +
        (message.containsSecrets ? " The file holds the values shown redacted here, in clear." : ""));
    },
    notice(message) { note(message.message, false); },
    error(message) { note(message.message, true); },
  };

  // MARK: The action list

  function refilter() {
    const words = model.filter.toLowerCase().split(/\s+/).filter(Boolean);
    model.shown = [];
    model.entries.forEach((entry, position) => {
      const haystack = (entry.name + " " + entry.summary).toLowerCase();
      if (words.every((word) => haystack.includes(word))) model.shown.push(position);
    });
    $("count").textContent = model.shown.length === model.entries.length
      ? model.entries.length + " actions kept"
      : model.shown.length + " of " + model.entries.length + " actions";
  }

  function queueRender(scrollToEnd) {
    if (scrollToEnd) model.scrollToEnd = true;
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(() => {
      renderQueued = false;
      renderList();
    });
  }

  function renderList() {
    const list = $("list");
    $("spacer").style.height = model.shown.length * ROW + "px";
    if (model.scrollToEnd) {
      list.scrollTop = list.scrollHeight;
      model.scrollToEnd = false;
    }
    const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
    const last = Math.min(model.shown.length, first + Math.ceil(list.clientHeight / ROW) + 10);
    const rows = $("rows");
    rows.style.transform = "translateY(" + first * ROW + "px)";
    let html = "";
    for (let i = first; i < last; i++) {
      const entry = model.entries[model.shown[i]];
      const classes = ["row", "row-grid"];
      if (entry.marker) classes.push("marker");
      if (entry.index === model.selected || inRange(entry.index)) classes.push("selected");
      if (entry.index === model.current) classes.push("current");
      if (model.current !== null && entry.index > model.current) classes.push("future");
      if (model.skipped.has(entry.index)) classes.push("skipped");
      if (entry.byEffect) classes.push("by-effect");
      const skipButton = entry.marker ? "" :
        '<button class="skip" type="button" title="Leave this action out, or take it back in">' +
        (model.skipped.has(entry.index) ? "unskip" : "skip") + "</button>";
      const slow = entry.duration !== null && entry.duration > 1e6 ? " slow" : "";
      html += '<div class="' + classes.join(" ") + '" data-index="' + entry.index + '">' +
        '<span class="index">' + entry.index + "</span>" +
        '<span class="time">' + formatTime(entry.time) + "</span>" +
        '<span class="duration' + slow + '">' + formatDuration(entry.duration) + "</span>" +
        '<span class="name" title="' + escape((entry.byEffect ? "sent by an effect: " : "") + entry.summary) + '">' +
        escape(entry.marker ? entry.name : entry.summary) + "</span>" +
        '<span class="row-tools">' + skipButton +
        '<button class="jump" type="button" title="Put the store back in the state after this action">jump</button></span>' +
        "</div>";
    }
    rows.innerHTML = html;
    const position = $("position");
    if (model.current !== null && model.current !== model.newest) {
      position.textContent = "at #" + model.current + " (time travel)";
      $("latest").disabled = false;
    } else {
      position.textContent = "";
      $("latest").disabled = true;
    }
  }

  function inRange(index) {
    if (model.rangeStart === null || model.selected === null) return false;
    return index >= Math.min(model.rangeStart, model.selected) && index <= Math.max(model.rangeStart, model.selected);
  }

  function updateTestButton() {
    const button = $("write-test");
    button.disabled = model.selected === null;
    if (model.rangeStart !== null && model.selected !== null && model.rangeStart !== model.selected) {
      button.textContent = "Write test (#" + Math.min(model.rangeStart, model.selected) + "–#" +
        Math.max(model.rangeStart, model.selected) + ")";
    } else {
      button.textContent = "Write test";
    }
  }

  function writeTest() {
    if (model.selected === null) return;
    const from = model.rangeStart === null ? model.selected : Math.min(model.rangeStart, model.selected);
    const through = model.rangeStart === null ? model.selected : Math.max(model.rangeStart, model.selected);
    send({ type: "test", index: from, through: through });
  }

  function select(index, extend) {
    if (extend && model.selected !== null) {
      if (model.rangeStart === null) model.rangeStart = model.selected;
    } else {
      model.rangeStart = null;
    }
    model.selected = index;
    updateTestButton();
    $("detail-title").textContent = "#" + index + " " + (entryAt(index) ? entryAt(index).summary : "");
    $("jump").disabled = false;
    updateSkipButton();
    send({ type: "select", index: index });
    queueRender(false);
  }

  function jump(index) {
    send({ type: "jump", index: index });
  }

  function toggleSkip(index) {
    send({ type: "skip", index: index, on: !model.skipped.has(index) });
  }

  function updateSkipButton() {
    const entry = model.selected === null ? null : entryAt(model.selected);
    const button = $("skip");
    button.disabled = !entry || entry.marker;
    button.textContent = entry && model.skipped.has(entry.index) ? "Unskip" : "Skip";
  }

  function entryAt(index) {
    return model.entries.find((entry) => entry.index === index);
  }

  // MARK: The selected action

  function renderDetail(message) {
    const diff = $("diff");
    diff.innerHTML = "";
    if (!message.hasPrevious) {
      diff.innerHTML = '<p class="hint">No earlier state is kept to compare with.</p>';
    } else if (message.diff.length === 0) {
      diff.innerHTML = '<p class="hint">Nothing changed.</p>';
    } else {
      let html = "";
      for (const line of message.diff) {
        html += '<div class="line"><span class="path">' + escape(line.path) + "</span>" +
          (line.old !== null && line.old !== undefined ? '<span class="minus">- ' + escape(line.old) + "</span>" : "") +
          (line.new !== null && line.new !== undefined ? '<span class="plus">+ ' + escape(line.new) + "</span>" : "") +
          "</div>";
      }
      diff.innerHTML = html;
    }
    $("sent-from").textContent = message.sentFrom ? "Sent from " + message.sentFrom : "";
    renderTree($("action"), message.action, 3);
    renderTree($("state"), message.state, 2);
    model.actionJSON = message.actionJSON || null;
    $("use-selected").disabled = model.actionJSON === null;
  }

  function renderTree(container, node, openDepth) {
    container.innerHTML = "";
    if (!node) {
      container.innerHTML = '<p class="hint">(not an action)</p>';
      return;
    }
    container.appendChild(treeNode(node, 0, openDepth));
  }

  function treeNode(node, depth, openDepth) {
    const label = node.l !== undefined && node.l !== null ? node.l : null;
    if (!node.c) {
      const leaf = document.createElement("div");
      leaf.className = "leaf";
      leaf.innerHTML = (label !== null ? '<span class="label">' + escape(label) + "</span>: " : "") +
        '<span class="' + (node.r ? "secret" : "value") + '">' + escape(node.v) + "</span>";
      return leaf;
    }
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    let heading = (label !== null ? '<span class="label">' + escape(label) + "</span>: " : "") +
      '<span class="type">' + escape(node.t) + "</span>";
    if (node.k === "enum" && node.v) heading += ' <span class="value">' + escape(node.v) + "</span>";
    if (node.n !== undefined && node.n !== null) heading += ' <span class="type">(' + node.n + ")</span>";
    summary.innerHTML = heading;
    details.appendChild(summary);
    let filled = false;
    const fill = () => {
      if (filled) return;
      filled = true;
      for (const child of node.c) details.appendChild(treeNode(child, depth + 1, openDepth));
      if (node.o) {
        const more = document.createElement("div");
        more.className = "more";
        more.textContent = "… " + node.o + " more not shown";
        details.appendChild(more);
      }
    };
    details.addEventListener("toggle", () => { if (details.open) fill(); });
    if (depth < openDepth) {
      fill();
      details.open = true;
    }
    return details;
  }

  // MARK: Effects, messages, banner

  function renderEffects() {
    const list = $("effects");
    if (model.effects.length === 0) {
      list.innerHTML = '<li class="hint">None.</li>';
      return;
    }
    const now = Date.now();
    list.innerHTML = model.effects.map((effect) =>
      '<li data-index="' + effect.index + '"><span class="mono">#' + effect.index + " " + escape(effect.name) +
      "</span>, running for " + formatSeconds((now - effect.since) / 1000) + "</li>").join("");
  }

  function note(text, isError) {
    const item = document.createElement("li");
    item.textContent = new Date().toLocaleTimeString() + "  " + text;
    if (isError) item.className = "error";
    const list = $("messages");
    list.insertBefore(item, list.firstChild);
    while (list.children.length > 50) list.removeChild(list.lastChild);
  }

  function showBanner() {
    const banner = $("banner");
    const limit = model.hello ? model.hello.historyLimit : "";
    banner.textContent = model.dropped.toLocaleString() + (model.dropped === 1 ? " action was" : " actions were") +
      " not shown: the store sent them faster than this page read them, and the history (" + limit +
      " snapshots) evicted them first.";
    banner.hidden = false;
  }

  function setStatus(text, kind) {
    const status = $("status");
    status.textContent = text;
    status.className = "status " + kind;
  }

  function renderStores(stores) {
    const select = $("stores");
    select.hidden = stores.length < 2;
    select.innerHTML = stores.map((store) =>
      '<option value="' + store.id + '"' + (store.id === model.store ? " selected" : "") + ">" +
      escape(store.title) + "</option>").join("");
  }

  function switchStore(id) {
    if (String(id) === String(model.store)) return;
    location.hash = "store=" + id;
    model.entries = [];
    model.shown = [];
    model.selected = null;
    model.rangeStart = null;
    model.skipped = new Set();
    model.effects = [];
    $("test-pane").hidden = true;
    queueRender(false);
    renderEffects();
    switching = true;
    socket.close();
  }

  function setLock(locked, held) {
    model.locked = locked;
    model.held = held;
    $("lock").textContent = locked ? "Unlock" : "Lock app";
    $("lock").title = locked
      ? "Release the held actions in order"
      : "Hold every action the app and its effects send until you unlock";
    $("drop").hidden = !locked;
    $("held").textContent = locked ? "locked: " + held + (held === 1 ? " action" : " actions") + " held" : "";
  }

  function setRecording(on) {
    model.recording = on;
    $("record").textContent = on ? "Pause recording" : "Resume recording";
    if (socket && socket.readyState === WebSocket.OPEN) setStatus(on ? "live" : "paused", on ? "live" : "paused");
  }

  // MARK: Formatting

  function escape(text) {
    return String(text === undefined || text === null ? "" : text)
      .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }

  function formatTime(milliseconds) {
    const date = new Date(milliseconds);
    const pad = (value, width) => String(value).padStart(width, "0");
    return pad(date.getHours(), 2) + ":" + pad(date.getMinutes(), 2) + ":" + pad(date.getSeconds(), 2) + "." +
      pad(date.getMilliseconds(), 3);
  }

  function formatDuration(nanoseconds) {
    if (nanoseconds === null || nanoseconds === undefined) return "–";
    if (nanoseconds < 1000) return nanoseconds + " ns";
    if (nanoseconds < 1e6) return (nanoseconds / 1000).toFixed(1) + " µs";
    return (nanoseconds / 1e6).toFixed(1) + " ms";
  }

  function formatSeconds(seconds) {
    return seconds < 60 ? seconds.toFixed(1) + " s" : Math.floor(seconds / 60) + " min " + Math.round(seconds % 60) + " s";
  }

  // MARK: Wiring

  $("list").addEventListener("scroll", () => queueRender(false));
  window.addEventListener("resize", () => queueRender(false));
  $("rows").addEventListener("click", (event) => {
    const row = event.target.closest(".row");
    if (!row) return;
    const index = Number(row.dataset.index);
    if (event.target.closest(".skip")) {
      toggleSkip(index);
    } else if (event.target.closest(".jump")) {
      select(index);
      jump(index);
    } else {
      $("follow").checked = false;
      select(index, event.shiftKey);
    }
  });
  $("rows").addEventListener("dblclick", (event) => {
    const row = event.target.closest(".row");
    if (row) jump(Number(row.dataset.index));
  });
  $("filter").addEventListener("input", (event) => {
    model.filter = event.target.value;
    refilter();
    queueRender(false);
  });
  $("jump").addEventListener("click", () => { if (model.selected !== null) jump(model.selected); });
  $("latest").addEventListener("click", () => { if (model.newest !== null) jump(model.newest); });
  $("skip").addEventListener("click", () => { if (model.selected !== null) toggleSkip(model.selected); });
  $("write-test").addEventListener("click", writeTest);
  $("stores").addEventListener("change", (event) => switchStore(event.target.value));
  $("copy-test").addEventListener("click", () => {
    const area = $("test-source");
    area.select();
    if (navigator.clipboard) {
      navigator.clipboard.writeText(area.value).then(() => note("Copied the test."), () => document.execCommand("copy"));
    } else {
      document.execCommand("copy");
    }
  });
  $("download-test").addEventListener("click", () => {
    if (!model.test) return;
    const blob = new Blob([model.test.source], { type: "text/x-swift" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = model.test.fileName;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  });
  $("lock").addEventListener("click", () => send({ type: "lock", on: !model.locked }));
  $("drop").addEventListener("click", () => send({ type: "lock", on: false, drop: true }));
  $("record").addEventListener("click", () => send({ type: "record", on: !model.recording }));
  $("export").addEventListener("click", () => send({ type: "export" }));
  $("load").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      try {
        send({ type: "load", fileName: file.name, data: JSON.parse(reader.result) });
      } catch (error) {
        note(file.name + " is not JSON.", true);
      }
      event.target.value = "";
    };
    reader.readAsText(file);
  });
  $("use-selected").addEventListener("click", () => { if (model.actionJSON) $("action-json").value = model.actionJSON; });
  $("send").addEventListener("click", () => {
    const text = $("action-json").value.trim();
    let action;
    try {
      action = JSON.parse(text);
    } catch (error) {
      note("That is not JSON: " + error.message, true);
      return;
    }
    send({ type: "send", action: action });
  });
  setInterval(() => { if (model.effects.length) renderEffects(); }, 1000);

  connect();
})();
