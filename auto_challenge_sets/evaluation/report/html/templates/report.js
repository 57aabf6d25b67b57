// The page's behaviour: sortable tables, the filters of the big table, and the sentences of each
// config, built from JSON with the DOM API (text nodes only: a sentence can never become markup).
// Included into the page by the Jinja template, so this file must not contain Jinja delimiters.
(function () {
  "use strict";

  // ---- sortable tables: a header's button sorts by its column, numbers by their data-value
  function cellKey(row, index) {
    var cell = row.children[index];
    if (!cell) return { num: null, text: "" };
    var raw = cell.getAttribute("data-value");
    if (raw !== null) return { num: raw === "" ? null : parseFloat(raw), text: "" };
    return { num: null, text: cell.textContent.trim().toLowerCase() };
  }

  function sortBy(table, th) {
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(th.parentNode.children, function (other) { other.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (row, k) { return { row: row, key: cellKey(row, index), k: k }; });
    keyed.sort(function (a, b) {
      var x = a.key, y = b.key, order = 0;
      if (x.num !== null || y.num !== null) {
        if (x.num === null) return 1;  // cells without a number go last either way
        if (y.num === null) return -1;
        order = x.num - y.num;
      } else {
        order = x.text < y.text ? -1 : x.text > y.text ? 1 : 0;
      }
      return (ascending ? order : -order) || a.k - b.k;
    });
    keyed.forEach(function (item) { body.appendChild(item.row); });
    table.dispatchEvent(new Event("acs-sorted"));  // a paged table shows its new first page
  }

  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.tHead.querySelectorAll("th").forEach(function (th) {
      var button = th.querySelector("button");
      if (button) button.addEventListener("click", function () { sortBy(table, th); });
    });
  });

  // ---- filters of a table: selects match the rows' data attributes, text matches the row's text;
  // the matching rows are shown data-page-size at a time (the filters apply first)
  function matches(row, wanted, text, worseOnly) {
    for (var key in wanted) {
      if (row.getAttribute("data-" + key) !== wanted[key]) return false;
    }
    if (worseOnly && !row.hasAttribute("data-worse")) return false;
    return !text || row.textContent.toLowerCase().indexOf(text) >= 0;
  }

  document.querySelectorAll("form.filters[data-table]").forEach(function (form) {
    var table = document.getElementById(form.getAttribute("data-table"));
    var count = form.querySelector(".count");
    var size = parseInt(form.getAttribute("data-page-size"), 10);
    var pager = document.querySelector("nav.pager[data-table='" + table.id + "']");
    var page = 0;
    function apply(keepPage) {
      if (keepPage !== true) page = 0;  // a new filter starts at the first page
      var wanted = {}, text = "", worseOnly = false;
      form.querySelectorAll("[data-filter]").forEach(function (input) {
        var key = input.getAttribute("data-filter");
        if (key === "text") text = input.value.trim().toLowerCase();
        else if (key === "worse") worseOnly = input.checked;
        else if (input.value) wanted[key] = input.value;
      });
      var matched = 0, rows = table.tBodies[0].rows;
      for (var i = 0; i < rows.length; i++) {
        var visible = matches(rows[i], wanted, text, worseOnly);
        if (visible) {
          visible = matched >= page * size && matched < (page + 1) * size;
          matched++;
        }
        rows[i].hidden = !visible;
      }
      count.textContent = matched + " of " + rows.length + " rows";
      var pages = Math.max(1, Math.ceil(matched / size));
      pager.querySelector(".page").textContent = "page " + (page + 1) + " of " + pages + " (rows " +
        (matched ? page * size + 1 : 0) + "–" + Math.min(matched, (page + 1) * size) + ")";
      pager.querySelector("[data-page=prev]").disabled = page === 0;
      pager.querySelector("[data-page=next]").disabled = page >= pages - 1;
      pager.hidden = pages < 2;
    }
    pager.querySelector("[data-page=prev]").addEventListener("click", function () { page--; apply(true); });
    pager.querySelector("[data-page=next]").addEventListener("click", function () { page++; apply(true); });
    table.addEventListener("acs-sorted", function () { apply(); });  // a new order starts at the first page
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    apply();
  });

  // ---- the sections are folded: a link opens the folds around its target, and a section its own;
  // a link to #sentences-CONFIG opens that config and brings its first marked word into view
  function unfold() {
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!target) return;
    var own = target.querySelector(":scope > details.section");
    if (own) own.open = true;
    for (var fold = target.closest("details"); fold; fold = fold.parentElement.closest("details")) fold.open = true;
    if (!target.matches("details.config")) return target.scrollIntoView();
    open(target);  // its rows now, to find the mark
    var mark = target.querySelector(".sentence:not([hidden]) mark");
    (mark || target).scrollIntoView({ block: "center" });
  }
  window.addEventListener("hashchange", unfold);

  // ---- the sentences behind each config
  var dataNode = document.getElementById("acs-sentences");
  if (!dataNode) return unfold();  // a page without them has no config to open
  var data = JSON.parse(dataNode.textContent);
  var systems = data.systems;
  var texts = data.texts;
  var systemSelect = document.getElementById("sentence-system");
  var verdictSelect = document.getElementById("sentence-verdict");
  var VERDICTS = { c: "correct", w: "wrong", u: "unaligned" };

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // a span of tokens joined by spaces, each marked token in <mark class=role>, a doubted one's with its class and title
  function tokens(words, marks, doubts) {
    var roles = {};
    marks.forEach(function (mark) { if (!(mark[0] in roles)) roles[mark[0]] = mark[1]; });
    var span = element("span", "text");
    words.forEach(function (word, k) {
      if (k) span.appendChild(document.createTextNode(" "));
      if (!(k in roles)) { span.appendChild(document.createTextNode(word)); return; }
      var mark = span.appendChild(element("mark", roles[k], word));
      if (doubts && doubts[k]) { mark.classList.add(doubts[k][0]); mark.title = doubts[k][1]; }
    });
    return span;
  }

  // a line of a row: its label in one column, its words (a span.text) in the other
  function labelled(tag, className, label, body) {
    var line = element(tag, className);
    line.appendChild(element("span", "label", label));
    line.appendChild(body);
    return line;
  }

  function instanceText(text, instance) {
    var words = instance.src.map(function (mark) { return mark[1] + " “" + (text.src[mark[0]] || "?") + "”"; });
    return words.join(", ") + ", d = " + instance.d;
  }

  // what a verdict rests on: each part's source word, the reference words aligned to it and,
  // with an aligning judge, the output words aligned to it (the present match looks for the
  // reference words anywhere in the output)
  function evidence(text, instance, out, outputWords) {
    return ["head", "dependent"].map(function (role, r) {
      var src = instance.src.filter(function (mark) { return mark[1] === role; })[0];
      var ref = instance.ref.filter(function (mark) { return mark[1] === role; })
        .map(function (mark) { return text.ref[mark[0]]; });
      var said = role + " “" + (src ? text.src[src[0]] : "?") + "” → reference “" + (ref.join(" ") || "–") + "”";
      if (!ref.length) return said + (r ? " (judged with its head)" : " (no expected translation)");
      if (!out) return said + ", looked for in the whole output";
      var got = out[r].map(function (j) { return outputWords[j]; }).join(" ");
      return said + ", output “" + (got || "–") + "”";
    }).join("; ");
  }

  function renderRow(row) {
    var text = texts[row.line] || window.ACS_TEXTS[row.line];  // a line beyond the page's: its sidecar's
    var box = element("div", "sentence");
    box.setAttribute("data-line", row.line);
    var meta = element("div", "meta", "line " + row.line + " · d = " + row.d + " · ");
    meta.appendChild(document.createTextNode(row.inst.map(function (i) { return instanceText(text, i); }).join("; ")));
    box.appendChild(meta);
    var srcMarks = [], refMarks = [];
    row.inst.forEach(function (i) { srcMarks = srcMarks.concat(i.src); refMarks = refMarks.concat(i.ref); });
    box.appendChild(labelled("p", "source", "source", tokens(text.src, srcMarks)));
    var doubts = {};  // a reference word's doubted link: [class, why], from the build's provenance or the parse
    refMarks.forEach(function (mark) { if (data.uncertain) doubts[mark[0]] = ["uncertain", data.uncertain]; });
    (row.c || []).forEach(function (c) { doubts[c[0]] = ["contradicted", [c[1], data.uncertain].filter(Boolean).join("; ")]; });
    box.appendChild(labelled("p", "reference", "reference", tokens(text.ref, refMarks, doubts)));
    var list = element("ul", "outputs");
    systems.forEach(function (system, s) {
      var output = text.out[s];
      var body = element("span", "text", output === null ? "(not available)" : output);
      var item = labelled("li", "", system, body);
      item.setAttribute("data-system", system);
      // one letter per instance: c correct, w wrong, u unaligned; upper case: absorbed
      var codes = row.v ? row.v[s] : null;
      var seen = [];
      if (codes) {
        var words = output === null ? [] : output.trim().split(/\s+/);
        codes.split("").forEach(function (code, k) {
          var verdict = VERDICTS[code.toLowerCase()];
          body.appendChild(element("span", "verdict " + verdict, verdict));
          seen.push(verdict);
          if (code !== code.toLowerCase()) {
            body.appendChild(element("span", "verdict absorbed", "absorbed"));
            seen.push("absorbed");
          }
          body.appendChild(element("small", "links", evidence(text, row.inst[k], row.o && row.o[s] ? row.o[s][k] : null,
                                                              words)));
        });
      }
      item.setAttribute("data-verdicts", seen.join(" "));
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
  }

  function filterSentences(scope) {
    var system = systemSelect.value, verdict = verdictSelect.value;
    scope.querySelectorAll(".sentence").forEach(function (box) {
      var any = false;
      box.querySelectorAll("li[data-system]").forEach(function (item) {
        var mine = !system || item.getAttribute("data-system") === system;
        var judged = !verdict || (" " + item.getAttribute("data-verdicts") + " ").indexOf(" " + verdict + " ") >= 0;
        item.hidden = !mine;
        if (mine && judged) any = true;
      });
      box.hidden = !any;
    });
    var configs = scope.matches && scope.matches("details.config") ? [scope] : scope.querySelectorAll("details.config");
    Array.prototype.forEach.call(configs, function (details) { explainEmpty(details, verdict); });
  }

  // a verdict filter that hides every row says why, instead of leaving the config blank
  function explainEmpty(details, verdict) {
    var note = details.querySelector("p.filter-note");
    var shown = details.querySelector(".sentence:not([hidden])");
    var message = "";
    if (verdict && !data.configs[details.getAttribute("data-config")].verdicts) {
      message = "No verdicts here: targeted accuracy judges the instances of lexical configs only.";
    } else if (verdict && !shown && details.getAttribute("data-rendered")) {
      message = "No row shown here has the verdict " + verdict + (systemSelect.value ? " for " + systemSelect.value : "") +
        " (rows not loaded yet are not searched).";
    }
    if (!message) { if (note) note.remove(); return; }
    if (!note) {
      note = element("p", "note filter-note");
      details.querySelector(".rows").before(note);
    }
    note.textContent = message;
  }

  function append(details, rows) {
    var holder = details.querySelector(".rows");
    rows.forEach(function (row) { holder.appendChild(renderRow(row)); });
    filterSentences(details);
  }

  function open(details) {
    if (details.getAttribute("data-rendered")) return;
    details.setAttribute("data-rendered", "1");
    append(details, data.configs[details.getAttribute("data-config")].rows);
  }

  // a sidecar script, inserted once (a second request for it waits on the first)
  var loading = {};
  function load(src) {
    if (!loading[src]) {
      loading[src] = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = src;
        script.onload = resolve;
        script.onerror = function () { delete loading[src]; reject(new Error(src)); };
        document.head.appendChild(script);
      });
    }
    return loading[src];
  }

  // the rows beyond the page's: the config's sidecar, then the files of their lines' words
  function loadMore(details, button) {
    var name = details.getAttribute("data-config");
    button.disabled = true;
    button.textContent = "loading…";
    load(button.getAttribute("data-sidecar")).then(function () {
      return Promise.all(window.ACS_SENTENCES[name].texts.map(load));
    }).then(function () {
      button.remove();
      append(details, window.ACS_SENTENCES[name].rows);
    }, function (error) {
      button.disabled = false;
      button.textContent = "could not load " + error.message + " (keep the sentences/ folder beside this page)";
    });
  }

  document.querySelectorAll("details.config").forEach(function (details) {
    details.addEventListener("toggle", function () { if (details.open) open(details); });
    var button = details.querySelector("button.more");
    if (button) button.addEventListener("click", function () { loadMore(details, button); });
  });

  function refilter() { filterSentences(document.getElementById("sentences")); }
  systemSelect.addEventListener("change", refilter);
  verdictSelect.addEventListener("change", refilter);
  unfold();
})();
