// The players' pages: refreshes that send nothing when nothing changed, search as you type,
// details of a standings row on a narrow screen, and "me" remembered on this phone.
(function () {
  "use strict";

  const ME_PREFIX = "tarot-desk:me:";

  function remembered(tournament) {
    try {
      return JSON.parse(localStorage.getItem(ME_PREFIX + tournament) || "null");
    } catch (error) {
      return null; // private browsing or a damaged value: nobody remembered
    }
  }

  function remember(tournament, me) {
    try {
      if (me) localStorage.setItem(ME_PREFIX + tournament, JSON.stringify(me));
      else localStorage.removeItem(ME_PREFIX + tournament);
    } catch (error) {
      /* storage refused: the page still works, it just won't remember */
    }
  }

  // Fetch a fragment; If-None-Match makes an unchanged one answer 304 with no body
  // (the browser passes a 304 through when the page set the header itself).
  async function fragment(url, etag) {
    const headers = { "HX-Request": "true" };
    if (etag) headers["If-None-Match"] = etag;
    const response = await fetch(url, { headers, credentials: "same-origin" });
    if (response.status === 304) return null;
    if (!response.ok) throw new Error(response.status);
    return { html: await response.text(), etag: response.headers.get("ETag") || "" };
  }

  // --- Live regions: [data-poll] asks its URL every few seconds --------------------------------
  const sequence = new WeakMap(); // the latest request per region: older answers are dropped

  async function refresh(region, url) {
    const mine = (sequence.get(region) || 0) + 1;
    sequence.set(region, mine);
    const target = url || region.dataset.poll;
    const answer = await fragment(target, url ? "" : region.dataset.etag).catch(() => null);
    if (!answer || sequence.get(region) !== mine) return false;
    region.dataset.etag = answer.etag;
    if (url) region.dataset.poll = url;
    region.innerHTML = answer.html;
    enhance(region);
    return true;
  }

  function poll(region) {
    const seconds = Number(region.dataset.pollSeconds || 5);
    let busy = false;
    setInterval(async () => {
      if (busy || document.hidden || !region.dataset.poll) return;
      busy = true;
      try {
        await refresh(region);
      } finally {
        busy = false;
      }
    }, seconds * 1000);
  }

  // --- Standings rows on a narrow screen: rank, name, total and a details toggle -----------------
  const openRows = new Set();

  function rowKey(row) {
    const name = row.querySelector("td.name");
    return name ? name.textContent.trim() : "";
  }

  function showDetails(row, labels) {
    const details = document.createElement("tr");
    details.className = "details";
    const cell = document.createElement("td");
    cell.colSpan = row.children.length;
    const list = document.createElement("dl");
    Array.from(row.children).forEach((td, index) => {
      if (index === 0 || td.matches(".name, .total, .more")) return;
      const term = document.createElement("dt");
      term.textContent = labels[index] || "";
      const value = document.createElement("dd");
      value.textContent = td.textContent.trim() || "—";
      list.append(term, value);
    });
    cell.append(list);
    details.append(cell);
    row.after(details);
  }

  function toggles(table, label) {
    const head = table.tHead && table.tHead.rows[0];
    if (!head || head.querySelector(".more")) return;
    const labels = Array.from(head.cells).map((th) => th.textContent.trim());
    const corner = document.createElement("th");
    corner.className = "more";
    head.append(corner);
    Array.from(table.tBodies[0].rows).forEach((row) => {
      if (!row.querySelector("td.name")) return; // "no result yet"
      const cell = document.createElement("td");
      cell.className = "more";
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "▾";
      button.setAttribute("aria-label", `${label} ${rowKey(row)}`);
      button.setAttribute("aria-expanded", "false");
      button.addEventListener("click", () => {
        const open = button.getAttribute("aria-expanded") !== "true";
        button.setAttribute("aria-expanded", String(open));
        button.textContent = open ? "▴" : "▾";
        if (open) {
          openRows.add(rowKey(row));
          showDetails(row, labels);
        } else {
          openRows.delete(rowKey(row));
          if (row.nextElementSibling && row.nextElementSibling.matches("tr.details")) {
            row.nextElementSibling.remove();
          }
        }
      });
      cell.append(button);
      row.append(cell);
      if (openRows.has(rowKey(row))) button.click(); // still open after a refresh
    });
  }

  // --- "Me" on this phone -----------------------------------------------------------------------
  function rememberButtons(root) {
    root.querySelectorAll(".me-remember").forEach((box) => {
      const tournament = box.dataset.meKey;
      const me = { id: box.dataset.meId, name: box.dataset.meName };
      const set = box.querySelector(".me-set");
      const known = box.querySelector(".me-known");
      const show = () => {
        const current = remembered(tournament);
        const isMe = Boolean(current && String(current.id) === me.id);
        set.hidden = isMe;
        known.hidden = !isMe;
      };
      set.onclick = () => {
        remember(tournament, me);
        show();
      };
      box.querySelector(".me-forget").onclick = () => {
        remember(tournament, null);
        show();
        if (document.getElementById("finder")) showFinder(); // the "me" page: search again
      };
      show();
      box.hidden = false;
    });
  }

  function enhance(root) {
    const standings = document.getElementById("standings");
    const label = standings ? standings.dataset.detailsLabel || "" : "";
    root.querySelectorAll("table.ranking").forEach((table) => toggles(table, label));
    rememberButtons(root);
  }

  // --- Search as you type -----------------------------------------------------------------------
  function liveSearch(form, input, run) {
    let timer = null;
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(run, 250);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(timer);
      run();
    });
  }

  function standingsSearch() {
    const form = document.querySelector(".public form.search[data-live]");
    const region = document.getElementById("standings");
    if (!form || !region) return;
    const input = form.querySelector("input[type=search]");
    liveSearch(form, input, () => {
      const params = new URLSearchParams(new FormData(form));
      if (!input.value.trim()) params.delete("q");
      const query = params.toString() ? `?${params}` : "";
      history.replaceState(null, "", location.pathname + query);
      refresh(region, form.dataset.live + query);
    });
  }

  function showFinder() {
    const card = document.getElementById("me-card");
    const finder = document.getElementById("finder");
    card.hidden = true;
    card.innerHTML = "";
    delete card.dataset.poll;
    finder.hidden = false;
    document.getElementById("found").hidden = false;
  }

  async function mePage() {
    const card = document.getElementById("me-card");
    const finder = document.getElementById("finder");
    if (!card || !finder) return;
    const found = document.getElementById("found");
    const input = finder.querySelector("input[type=search]");
    liveSearch(finder, input, async () => {
      const query = input.value.trim();
      const params = query ? `?${new URLSearchParams({ q: query })}` : "";
      history.replaceState(null, "", location.pathname + params);
      const answer = await fragment(finder.dataset.live + params).catch(() => null);
      if (answer && input.value.trim() === query) found.innerHTML = answer.html;
    });
    const me = remembered(card.dataset.meKey);
    if (!me || input.value.trim()) return;
    // The page opens on "me": the card of the player this phone remembers.
    const url = card.dataset.playerUrl.replace(/0\/$/, `${encodeURIComponent(me.id)}/`);
    finder.hidden = true;
    found.hidden = true;
    card.hidden = false;
    try {
      const answer = await fragment(url);
      card.dataset.poll = url;
      card.dataset.etag = answer.etag;
      card.innerHTML = answer.html;
      enhance(card);
      poll(card);
    } catch (error) {
      // 404: that player is no longer in this tournament; offline: search works once back.
      if (error.message === "404") remember(card.dataset.meKey, null);
      showFinder();
    }
  }

  function meLink() {
    const link = document.querySelector("[data-me-link]");
    if (!link) return;
    const me = remembered(link.dataset.meLink);
    if (me && me.name) link.textContent = `${link.dataset.meLabel} ${me.name}`;
  }

  document.addEventListener("DOMContentLoaded", () => {
    enhance(document);
    document.querySelectorAll("[data-poll]").forEach(poll);
    standingsSearch();
    mePage();
    meLink();
  });
})();
