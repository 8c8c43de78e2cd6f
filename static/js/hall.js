/* The hall screen: pours the published lists into pages that fit the screen, cycles through
   them, polls the server with an ETag for news, and ticks the position clock between polls
   (re-synced from the server's remaining seconds on every poll). Text never gets clipped:
   a line too long for its box is shrunk, down to 75 %, then wrapped. */
(function () {
  "use strict";

  var CLOCK_HEADER = "X-Position-Clock";
  var source, stage, titleElement, url, pageSeconds, pollSeconds;
  var etag = null; // the exact ETag header value of the slides shown
  var pages = [];
  var index = 0;
  var cycleTimer = null;
  var positionKey = null;
  var clock = null;

  // --- fitting text ---------------------------------------------------------------------------

  function fit(element) {
    element.style.fontSize = "";
    element.classList.remove("wrapped");
    if (element.scrollWidth <= element.clientWidth) return;
    if (element.matches(NAMES)) {
      // Names keep one size on every page (the screen chooses its columns for them instead).
      element.classList.add("wrapped");
      return;
    }
    var size = parseFloat(window.getComputedStyle(element).fontSize);
    var smallest = size * 0.75;
    while (element.scrollWidth > element.clientWidth && size > smallest) {
      size -= 2;
      element.style.fontSize = size + "px";
    }
    if (element.scrollWidth > element.clientWidth) element.classList.add("wrapped");
  }

  var NAMES = ".who-name, .plan-name, .rank-name";

  // Many at once: every size reset first, then one layout tells which overflow (a fit per
  // element would lay the whole page out again for each of hundreds of names).
  function fitMany(elements) {
    Array.prototype.forEach.call(elements, function (element) {
      element.style.fontSize = "";
      element.classList.remove("wrapped");
    });
    Array.prototype.filter
      .call(elements, function (element) {
        return element.scrollWidth > element.clientWidth;
      })
      .forEach(fit);
  }

  function fitAll(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".fit, " + NAMES), fit);
  }

  // --- columns ----------------------------------------------------------------------------------

  // The column counts tried for each kind of page, most first: the screen uses its width, and
  // a name never wraps while fewer columns would let it fit (a name too long even for the
  // fewest columns wraps, and takes no column from the others).
  var COLUMNS = { who: [3, 2, 1], standings: [3, 2, 1], plan: [4, 3, 2, 1] };

  function chooseColumns(kind, items) {
    var counts = COLUMNS[kind];
    if (!counts) return 0;
    var probe = newPage(kind);
    var list = probe.firstChild;
    items.forEach(function (item) {
      list.appendChild(item.cloneNode(true));
    });
    var names = list.querySelectorAll(NAMES);
    var tried = counts.map(function (count) {
      probe.className = "hall-page page-" + kind + " off cols-" + count;
      fitMany(names);
      return { count: count, wrapped: list.querySelectorAll(".wrapped").length };
    });
    // The most columns where no name wraps (shrinking one to 75 % is fine); a name too long even
    // for the fewest columns does not take the others' columns away.
    var fewest = tried[tried.length - 1];
    stage.removeChild(probe);
    return tried.find(function (t) {
      return t.wrapped === fewest.wrapped;
    }).count;
  }

  // --- pages ------------------------------------------------------------------------------------

  function newPage(kind, columns) {
    var page = document.createElement("div");
    page.className = "hall-page page-" + kind + " off" + (columns ? " cols-" + columns : "");
    page.dataset.kind = kind;
    page.appendChild(document.createElement("ol"));
    stage.appendChild(page);
    return page;
  }

  function overflows(list) {
    return list.scrollHeight > list.clientHeight + 1 || list.scrollWidth > list.clientWidth + 1;
  }

  function paginate(kind, items, maxPages) {
    var made = [];
    var page = null;
    var columns = chooseColumns(kind, items);
    for (var i = 0; i < items.length; i++) {
      if (!page) {
        page = newPage(kind, columns);
        made.push(page);
      }
      var list = page.firstChild;
      var item = items[i].cloneNode(true);
      list.appendChild(item);
      fitAll(item);
      if (overflows(list) && list.children.length > 1) {
        list.removeChild(item);
        if (maxPages && made.length >= maxPages) break;
        page = newPage(kind, columns);
        made.push(page);
        page.firstChild.appendChild(item);
        fitAll(item);
      }
    }
    made.forEach(function (p) {
      p.hidden = true;
      p.classList.remove("off");
      p.classList.add("balanced"); // a page's items spread over its columns once it is filled
    });
    return made;
  }

  function build() {
    stage.innerHTML = "";
    pages = [];
    var data = source.querySelector(".hall-data");
    if (!data) return;
    Array.prototype.forEach.call(data.querySelectorAll("section[data-kind]"), function (section) {
      var items = Array.prototype.slice.call(section.querySelectorAll(":scope > ol > li"));
      var made = paginate(section.dataset.kind, items, parseInt(section.dataset.maxPages || "0", 10));
      made.forEach(function (page, i) {
        var suffix = made.length > 1 ? " (" + (i + 1) + "/" + made.length + ")" : "";
        pages.push({ kind: section.dataset.kind, title: section.dataset.title + suffix, element: page });
      });
    });
  }

  function show(i) {
    index = pages.length ? i % pages.length : 0;
    pages.forEach(function (page, n) {
      page.element.hidden = n !== index;
    });
    var page = pages[index];
    titleElement.textContent = page ? page.title : "";
    fit(titleElement);
    document.body.dataset.kind = page ? page.kind : "";
    document.body.dataset.page = String(index);
  }

  function startCycle() {
    clearInterval(cycleTimer);
    cycleTimer = setInterval(function () {
      show(index + 1);
    }, pageSeconds * 1000);
  }

  function announce() {
    var text = source.querySelector(".hall-announcement-source");
    var value = text ? text.textContent.trim() : "";
    var foot = document.getElementById("hall-foot");
    var line = document.getElementById("hall-announcement");
    line.textContent = value;
    foot.hidden = !value;
    if (value) fit(line);
  }

  function refresh(firstTime) {
    var data = source.querySelector(".hall-data");
    var key = data ? data.dataset.position + ":" + (data.dataset.positionStatus || "") : "";
    var kind = pages[index] && pages[index].kind;
    var within = 0;
    if (kind) {
      for (var i = index; i > 0 && pages[i - 1].kind === kind; i--) within++;
    }
    announce(); // before paginating: the footer takes its height from the stage
    build();
    fit(document.getElementById("hall-name"));
    if (firstTime || key !== positionKey) {
      // A new position: who sits where first, and the whole cycle again.
      positionKey = key;
      show(0);
      startCycle();
    } else {
      // The same position (a deal typed, a new announcement): stay where the screen was.
      var first = pages.findIndex(function (page) {
        return page.kind === kind;
      });
      var same = first < 0 ? 0 : first + within;
      show(first >= 0 && pages[same] && pages[same].kind === kind ? same : Math.max(first, 0));
    }
    renderClock();
  }

  // --- the clock --------------------------------------------------------------------------------

  function format(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
  }

  function left() {
    if (!clock) return 0;
    if (!clock.running) return clock.remaining;
    return Math.max(0, Math.ceil(clock.remaining - (performance.now() - clock.at) / 1000));
  }

  function renderClock() {
    var box = document.getElementById("hall-clock-box");
    var element = document.getElementById("hall-clock");
    var shown = !!clock && (clock.running || clock.paused);
    box.hidden = !shown;
    if (!shown) return;
    var data = source.querySelector(".hall-data");
    var label = document.getElementById("hall-clock-label");
    if (data && data.dataset.positionLabel) label.textContent = data.dataset.positionLabel;
    var seconds = left();
    element.textContent = format(seconds);
    element.classList.toggle("paused", !!clock.paused);
    element.classList.toggle("expired", seconds === 0);
  }

  function syncClock(header) {
    if (header === null) return;
    try {
      var state = JSON.parse(header);
      clock = state ? { remaining: state.remaining, running: state.running, paused: state.paused, at: performance.now() } : null;
    } catch (e) {
      return; // unreadable: keep ticking from the last state
    }
    renderClock();
  }

  // --- polling ----------------------------------------------------------------------------------

  function gone() {
    clearInterval(cycleTimer);
    stage.innerHTML = "";
    document.getElementById("hall-clock-box").hidden = true;
    document.getElementById("hall-gone").hidden = false;
  }

  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { cache: "no-store", headers: headers })
      .then(function (response) {
        if (response.status === 404) {
          gone();
          return;
        }
        syncClock(response.headers.get(CLOCK_HEADER));
        if (response.status !== 200) return; // 304: nothing new to show
        var tag = response.headers.get("ETag");
        return response.text().then(function (html) {
          etag = tag;
          source.innerHTML = html;
          refresh(false);
        });
      })
      .catch(function () {
        /* the network is down: keep showing what we have, ask again at the next poll */
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    source = document.getElementById("hall-source");
    stage = document.getElementById("hall-stage");
    titleElement = document.getElementById("hall-slide-title");
    url = source.dataset.url;
    pageSeconds = parseInt(source.dataset.pageSeconds, 10) || 15;
    pollSeconds = parseInt(source.dataset.pollSeconds, 10) || 5;
    etag = source.dataset.etag ? '"' + source.dataset.etag + '"' : null;
    var element = document.getElementById("hall-clock");
    clock = {
      remaining: parseInt(element.dataset.remaining, 10) || 0,
      running: element.dataset.running === "1",
      paused: element.dataset.paused === "1",
      at: performance.now()
    };
    refresh(true);
    setInterval(renderClock, 250);
    setInterval(poll, pollSeconds * 1000);
    var resizing = null;
    window.addEventListener("resize", function () {
      clearTimeout(resizing);
      resizing = setTimeout(function () {
        refresh(false);
      }, 300);
    });
    // A click (or a key) puts the page in full screen: browsers ask for a gesture first.
    function fullScreen() {
      if (!document.fullscreenElement && document.documentElement.requestFullscreen) {
        document.documentElement.requestFullscreen().catch(function () {});
      }
    }
    document.addEventListener("click", fullScreen);
    document.addEventListener("keydown", fullScreen);
  });
})();
