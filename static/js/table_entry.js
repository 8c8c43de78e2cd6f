// The table's phone page: tap a deal in, see its row, save it even without Wi-Fi.
// Deals wait in the phone's storage until the server has them; each carries an id made here,
// so a resend after a lost answer or a double tap is recognised by the server, never doubled.
(function () {
  "use strict";
  var app = document.getElementById("table-app");
  if (!app) return;
  // Django's JavaScript catalogue (French is the source); plain text if it failed to load.
  var _ = window.gettext || function (text) { return text; };
  var fill = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) { return values[key]; });
  };
  var token = app.dataset.token;
  var players = parseInt(app.dataset.players, 10);
  var calledKing = app.dataset.calledKing === "1";
  // One storage key per waiting deal (static/js/table_queue.js): another tab of this table
  // adds and drops its own keys, never this tab's.
  var queueStore = new window.TableQueue(token);
  var form = document.getElementById("deal-entry");
  var flushing = false;
  var blocked = false; // a refused or conflicting deal waits for the player's decision
  var fixing = null; // the number of the waiting deal being corrected, if any

  function $(id) { return document.getElementById(id); }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    var field = document.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function newId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function readQueue() {
    try { return queueStore.list(); } catch (e) { return []; }
  }

  function unqueue(clientId) {
    queueStore.remove(clientId);
    showState();
  }

  function sheetData() {
    var sheet = $("table-sheet");
    return {
      version: parseInt(sheet.dataset.version, 10) || 0,
      nextNumber: parseInt(sheet.dataset.nextNumber, 10) || 1,
      nextDealer: parseInt(sheet.dataset.nextDealer, 10) || 0,
      dealCount: parseInt(sheet.dataset.dealCount, 10) || 0,
    };
  }

  // The players' names by seat index; the page lists them in the paper sheet's order.
  function names() {
    var list = [];
    seatsInOrder().forEach(function (seat) { list[seat] = seatName(seat); });
    return list;
  }

  function seatInputs() {
    return Array.prototype.filter.call(document.querySelectorAll("#takers input[name=taker]"), function (input) {
      return /^\d+$/.test(input.value);
    });
  }

  function seatsInOrder() {
    return seatInputs().map(function (input) { return parseInt(input.value, 10); });
  }

  function seatName(seat) {
    var input = document.querySelector("#takers input[name=taker][value='" + seat + "']");
    return input ? input.parentNode.textContent.trim() : "";
  }

  // The next deal's number and dealer count the deals still waiting on the phone: each keeps
  // the number it was typed under (one in conflict may be already on the sheet).
  function nextDeal() {
    var data = sheetData();
    var number = data.nextNumber;
    readQueue().forEach(function (item) {
      number = item.number ? Math.max(number, item.number + 1) : number + 1;
    });
    var dealer = data.nextDealer;
    for (var i = data.nextNumber; i < number; i++) dealer = (dealer - 1 + players) % players;
    return { number: number, dealer: dealer };
  }

  // The table plays so many deals: past them the form is replaced by a note (a correction of a
  // waiting deal still opens it).
  function sheetFull() {
    var count = sheetData().dealCount;
    return count > 0 && nextDeal().number > count;
  }

  function setStatus(online) {
    var badge = $("net-status");
    badge.textContent = online ? _("En ligne") : _("Hors ligne");
    badge.className = "badge " + (online ? "ok" : "err");
    // Said before the player reloads into the browser's own "no internet" page.
    $("offline-banner").hidden = online;
  }

  // Signed by the whole table (or validated): nothing is left to enter, confirm or sign here,
  // so those parts go and the page says what follows (the sheet's own note, #table-complete).
  function sheetDone() {
    var status = $("table-sheet").dataset.status;
    return status === "complete" || status === "validated";
  }

  function showState() {
    var next = nextDeal();
    var done = sheetDone();
    var full = (sheetFull() && fixing === null) || done;
    form.hidden = full;
    $("who-section").hidden = done;
    $("confirm-section").hidden = done;
    $("sheet-done").hidden = !done;
    $("sheet-full").hidden = !full || done;
    $("sheet-full").textContent = full ? fill(_("Feuille complète : les %(count)s donnes de la table sont saisies."), { count: sheetData().dealCount }, true) : "";
    $("deal-number").textContent = next.number;
    $("dealer-name").textContent = names()[next.dealer] || "";
    var queue = readQueue();
    var status = $("queue-status");
    $("queue-box").hidden = !queue.length;
    showQueued(queue);
    if (queue.length) {
      var text = window.ngettext
        ? ngettext(
          "%(count)s donne en attente d'envoi (gardée sur ce téléphone)",
          "%(count)s donnes en attente d'envoi (gardées sur ce téléphone)", queue.length)
        : (queue.length === 1 ? "%(count)s donne en attente d'envoi (gardée sur ce téléphone)"
          : "%(count)s donnes en attente d'envoi (gardées sur ce téléphone)");
      status.textContent = fill(text, { count: queue.length }, true);
    }
  }

  // The deals still on the phone, one line each: their number and what they say.
  function showQueued(queue) {
    var list = $("queue-list");
    list.textContent = "";
    queue.forEach(function (item) {
      var line = document.createElement("li");
      line.textContent = (item.number ? fill(_("Donne %(number)s"), { number: item.number }, true) + " · " : "")
        + describe(item.deal);
      list.appendChild(line);
    });
  }

  function value(name) {
    var checked = form.querySelector("[name=" + name + "]:checked");
    if (checked) return checked.value;
    var field = form.querySelector("select[name=" + name + "], input[type=text][name=" + name + "]");
    return field ? field.value : "";
  }

  // The engine's input, as the JSON API names it; null with a message when incomplete.
  function buildDeal() {
    var next = nextDeal();
    var taker = value("taker");
    if (taker === "") return { error: _("Indiquez le preneur (ou Tous passent).") };
    if (taker === "passed") return { deal: { passed: true, dealer: next.dealer } };
    var deal = { taker: parseInt(taker, 10), dealer: next.dealer };
    deal.contract = value("contract");
    if (!deal.contract) return { error: _("Indiquez le contrat.") };
    if (calledKing) {
      var partner = value("partner");
      if (partner === "") return { error: _("Indiquez le partenaire appelé (ou seul, ou roi au chien).") };
      // Alone: the taker called themself ("self") or the king was in the chien ("dog"). Deals
      // queued by an older page have no "alone" key: the server reads them as "reason unknown".
      if (partner === "alone" || partner === "dog") {
        deal.partner = null;
        deal.alone = partner === "dog" ? "dog" : "self";
      } else {
        deal.partner = parseInt(partner, 10);
      }
    }
    var oudlers = value("oudlers");
    if (oudlers === "") return { error: _("Indiquez le nombre de bouts.") };
    deal.oudlers = parseInt(oudlers, 10);
    var raw = value("points").replace(",", ".").trim();
    if (!/^\d{1,2}(\.5)?$/.test(raw)) return { error: _("Indiquez les points (0 à 91).") };
    var points = parseFloat(raw);
    deal.points = value("side") === "defense" ? 91 - points : points;
    if (deal.points === Math.floor(deal.points)) deal.points = Math.floor(deal.points);
    deal.poignees = [];
    ["1", "2"].forEach(function (row) {
      var size = value("poignee_size_" + row);
      var seat = value("poignee_seat_" + row);
      if (size && seat !== "") deal.poignees.push([parseInt(seat, 10), size]);
    });
    var petit = value("petit_au_bout");
    deal.petit_au_bout = petit || null;
    var chelem = value("chelem");
    deal.chelem_announced = chelem === "announced_made" || chelem === "announced_failed";
    deal.chelem = chelem === "announced_made" || chelem === "made" ? "attack"
      : chelem === "defense" ? "defense" : null;
    return { deal: deal };
  }

  // A refusal (wrong code, locked, stale sheet…) is an answer this page shows, not an error:
  // the server sends it with status 200 and the refusal's own status in `refused`, so the
  // browser logs nothing. Without Wi-Fi nothing is sent (the caller says so or retries later).
  function post(url, body) {
    if (!navigator.onLine) return Promise.reject(new Error("offline"));
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), "X-Refusal-Answer": "body" },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { status: data.refused || response.status, data: data };
      });
    });
  }

  var previewTimer = null;
  function preview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(function () {
      var built = buildDeal();
      var box = $("preview");
      if (built.error) { box.textContent = ""; return; }
      if (!navigator.onLine) { box.textContent = _("Hors ligne : le score sera calculé à l'envoi."); return; }
      post(app.dataset.urlPreview, { deal: built.deal }).then(function (answer) {
        if (answer.status === 200) {
          var scores = answer.data.scores;
          box.textContent = seatsInOrder().map(function (seat) {
            var points = scores[seat];
            return seatName(seat) + " " + (points > 0 ? "+" : "") + points;
          }).join(" · ");
          box.className = "preview ok";
        } else {
          box.textContent = answer.data.error || _("Donne impossible.");
          box.className = "preview err";
        }
      }).catch(function () { box.textContent = ""; });
    }, 200);
  }

  // The ETag of the sheet shown: sent back, an unchanged table answers 304 with no body.
  var sheetEtag = app.dataset.sheetEtag || "";

  // The deals this phone holds unsent, as the server last heard it: told again when it moves,
  // so that the arbiter sees them before closing the position.
  var reportedQueue = null;

  function refreshSheet() {
    if (flushing) return Promise.resolve();
    if (!navigator.onLine) { setStatus(false); return Promise.resolve(); }
    var headers = sheetEtag ? { "If-None-Match": sheetEtag } : {};
    var held = readQueue().length;
    if (held !== reportedQueue) headers["X-Queued-Deals"] = String(held);
    return fetch(app.dataset.urlSheet, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (response) {
        if (response.status === 304 || response.ok) reportedQueue = held;
        // The sheet is gone (the position closed, the table's code changed): this page's own
        // address now says so, and sends what the phone still holds to the arbiter.
        if (response.status === 404) { window.location.reload(); return null; }
        if (response.status === 304) return null;
        if (!response.ok) throw new Error("sheet " + response.status);
        return response.text().then(function (html) {
          sheetEtag = response.headers.get("ETag") || "";
          return html;
        });
      })
      .then(function (html) {
        if (html !== null) { $("sheet-holder").innerHTML = html; showCall(); }
        setStatus(true);
        showState();
      })
      .catch(function () { setStatus(navigator.onLine); });
  }

  function conflict(message, item, allowResend) {
    blocked = true;
    taken = null;
    // Which deal: its number, and what it says, before the reason.
    var which = item.number ? fill(_("Donne %(number)s"), { number: item.number }, true) : _("Donne");
    $("conflict-text").textContent = which + " (" + describe(item.deal) + ") : " + message;
    $("conflict-resend").textContent = item.number
      ? fill(_("Envoyer de nouveau la donne %(number)s à la feuille"), { number: item.number }, true)
      : _("Envoyer de nouveau cette donne à la feuille");
    $("conflict-drop").textContent = item.number
      ? fill(_("Effacer la donne %(number)s de ce téléphone"), { number: item.number }, true)
      : _("Effacer cette donne de ce téléphone");
    $("conflict-message").textContent = "";
    $("conflict-versions").hidden = true;
    $("conflict-keep").hidden = true;
    $("conflict-replace-box").hidden = true;
    $("conflict-resend").hidden = !allowResend;
    $("conflict-drop").hidden = false;
    $("conflict-box").hidden = false;
    $("conflict-box").dataset.clientId = item.client_id;
  }

  function signed(points) { return (points > 0 ? "+" : "") + points; }

  // A deal's inputs in words, as the sheet's rows read: contract, taker (and partner), bouts,
  // the attack's points.
  function describe(inputs) {
    if (inputs.passed || inputs.taker === null || inputs.taker === undefined) return _("Tous passent");
    var label = form.querySelector("input[name=contract][value='" + inputs.contract + "']");
    var words = (label ? label.parentNode.textContent.trim() : inputs.contract) + " · " + seatName(inputs.taker);
    if (inputs.partner !== null && inputs.partner !== undefined) words += " + " + seatName(inputs.partner);
    var oudlers = window.ngettext
      ? ngettext("%(oudlers)s bout, %(points)s points", "%(oudlers)s bouts, %(points)s points", inputs.oudlers)
      : (inputs.oudlers > 1 ? "%(oudlers)s bouts, %(points)s points" : "%(oudlers)s bout, %(points)s points");
    words += " · " + fill(oudlers, { oudlers: inputs.oudlers, points: String(inputs.points).replace(".", ",") }, true);
    return words;
  }

  function showVersion(side, version, who) {
    var box = $("conflict-" + side);
    box.querySelector(".who").textContent = who;
    box.querySelector(".deal-words").textContent = describe(version.inputs);
    box.querySelector(".scores").textContent = seatsInOrder().map(function (seat) {
      return seatName(seat) + " " + signed(version.scores[seat]);
    }).join(" · ");
  }

  // The deal's number was taken while this phone waited (another phone, the desk): both
  // versions side by side, for the table to keep the stored one or replace it with this one.
  var taken = null;
  var sayAfterConflict = ""; // a refused replacement's reason, shown over the redrawn versions
  function numberConflict(data, item) {
    // After a deal the sheet lacks, it may go once that deal arrives (resend), or be dropped.
    conflict(data.error, item, !data.stored);
    if (!data.stored || !data.mine) return;
    taken = { item: item, version: data.version, stored: data.stored };
    var stored = data.stored;
    var state = stored.disputed ? _("contestée") : stored.pending ? _("à confirmer") : _("confirmée");
    showVersion("stored", stored, (stored.by_desk ? _("Saisie par l'arbitre")
      : fill(_("Saisie par %(name)s"), { name: stored.entered_by }, true)) + " (" + state + ")");
    showVersion("mine", data.mine, fill(_("Saisie par %(name)s"), { name: data.mine.entered_by }, true));
    $("conflict-versions").hidden = false;
    $("conflict-keep").hidden = false;
    $("conflict-message").textContent = sayAfterConflict;
    sayAfterConflict = "";
    $("conflict-drop").hidden = true;
    // Replacing is the stored deal's correction: by its enterer (this phone's player, or with
    // their code), while it waits; the desk's or a confirmed deal is the arbiter's to change.
    var help = $("conflict-replace-help");
    if (stored.by_desk || !stored.pending) {
      $("conflict-replace-box").hidden = false;
      $("conflict-replace").hidden = true;
      $("conflict-replace-code").hidden = true;
      help.textContent = _("Seul l'arbitre peut changer la donne de la feuille : appelez-le si elle est fausse.");
      return;
    }
    var own = String(stored.entered_by_seat) === $("table-sheet").dataset.bound;
    $("conflict-replace-box").hidden = false;
    $("conflict-replace").hidden = false;
    $("conflict-replace-code").hidden = own;
    $("replace-seat").value = own ? "" : String(stored.entered_by_seat);
    help.textContent = own ? "" : fill(_("Pour remplacer sa donne, %(name)s tape son code personnel."), { name: stored.entered_by }, true);
  }

  function dropQueued(id) {
    unqueue(id);
    $("conflict-box").hidden = true;
    taken = null;
    blocked = false;
    return refreshSheet().then(flush);
  }

  function replaceStored() {
    if (!taken) return;
    var body = { version: taken.version, deal: taken.item.deal };
    if (!$("conflict-replace-code").hidden) {
      var seat = $("replace-seat").value;
      var pin = $("replace-pin").value.trim();
      if (seat === "" || !/^\d{4,8}$/.test(pin)) { $("conflict-message").textContent = _("Choisissez votre nom et tapez votre code personnel."); return; }
      body.entered_by = parseInt(seat, 10);
      body.pin = pin;
    }
    var number = taken.item.number;
    var id = taken.item.client_id;
    post(app.dataset.urlDeal + number + "/", body).then(function (answer) {
      $("replace-pin").value = "";
      if (answer.status === 200) {
        dropQueued(id);
        $("entry-error").textContent = fill(_("Donne %(number)s remplacée : elle attend une nouvelle confirmation."), { number: number }, true);
        return;
      }
      var message = answer.data.error || _("Refusé.");
      if (answer.status === 409) {
        // The sheet moved meanwhile (the stored deal corrected, confirmed…): both versions are
        // drawn again from the server before the table chooses again.
        sayAfterConflict = message;
        blocked = false;
        flush();
        return;
      }
      $("conflict-message").textContent = message;
    }).catch(function () { $("conflict-message").textContent = _("Hors ligne : réessayez quand le Wi-Fi revient."); });
  }

  function flush() {
    if (flushing || blocked) return;
    var queue = readQueue();
    if (!queue.length) return;
    flushing = true;
    var item = queue[0];
    // Who entered it is this phone's player, proved by the code they typed (a cookie the
    // server signed): the body names no one.
    var body = {
      client_id: item.client_id,
      version: item.version !== undefined ? item.version : sheetData().version,
      deal: item.deal,
      queued: queue.length,
    };
    // The number it was typed under: taken meanwhile, the server answers both versions and
    // stores nothing (a deal queued by an older page has none: the version is its check).
    if (item.number) body.number = item.number;
    post(app.dataset.urlDeal, body).then(function (answer) {
      flushing = false;
      setStatus(true);
      if (answer.status === 202 && answer.data.late) {
        // The position closed meanwhile: the server keeps the deal for the arbiter to decide.
        unqueue(item.client_id);
        $("entry-error").textContent = answer.data.message;
        flush();
      } else if (answer.status === 201 || answer.status === 200) {
        sayAfterConflict = "";
        $("table-sheet").dataset.version = answer.data.version;
        unqueue(item.client_id);
        if (readQueue().length) flush(); else refreshSheet();
      } else if (answer.data && answer.data.field === "entered_by") {
        // Not (or no longer) identified: the deal stays on the phone until the player is.
        showWho(false);
        $("who-message").textContent = answer.data.error;
      } else if (answer.status === 409 && answer.data.field === "number") {
        refreshSheet();
        numberConflict(answer.data, item);
      } else if (answer.status === 409 && answer.data.field === "version") {
        $("table-sheet").dataset.version = answer.data.version;
        refreshSheet();
        conflict(answer.data.error, item, true);
      } else {
        conflict((answer.data && answer.data.error) || _("Donne refusée."), item, false);
      }
    }).catch(function () {
      // No answer (Wi-Fi down, server away): the deal stays on the phone and goes later.
      flushing = false;
      setStatus(false);
    });
  }

  function resetForm() {
    form.reset();
    $("preview").textContent = "";
    $("preview").className = "preview";
    $("entry-error").textContent = "";
    $("played-fields").hidden = false;
    $("bonuses").open = false;
    fixing = null;
    $("fix-note").hidden = true;
    $("fix-cancel").hidden = true;
    $("deal-title").hidden = false;
    showState();
  }

  // The form's top just under the sticky line of the Wi-Fi badge.
  function toForm() {
    var head = document.querySelector(".status-line");
    var top = form.getBoundingClientRect().top + window.scrollY - (head ? head.offsetHeight : 0);
    window.scrollTo(0, Math.max(0, top - 4));
  }

  function isBound() { return !$("who-bound").hidden; }

  function showWho(bound, name) {
    $("who-bound").hidden = !bound;
    $("who-form").hidden = bound;
    $("confirm-as").hidden = !bound;
    if (bound && name !== undefined) {
      $("who-name").textContent = name;
      $("confirm-as-name").textContent = name;
    }
  }

  function check(name, val) {
    var input = form.querySelector("input[name=" + name + "][value='" + val + "']");
    if (input) input.checked = true;
  }

  // A waiting deal its enterer corrects: its inputs back into the form.
  function startFix(number) {
    var row = $("row-" + number);
    if (!row || !row.dataset.inputs) return;
    var deal = JSON.parse(row.dataset.inputs);
    resetForm();
    fixing = number;
    if (deal.taker === null || deal.taker === undefined) {
      check("taker", "passed");
      $("played-fields").hidden = true;
    } else {
      check("taker", deal.taker);
      check("contract", deal.contract);
      if (calledKing) check("partner", deal.partner !== null ? deal.partner : (deal.alone === "dog" ? "dog" : "alone"));
      check("oudlers", deal.oudlers);
      check("side", "attack");
      form.querySelector("[name=points]").value = String(deal.points).replace(".", ",");
      (deal.poignees || []).slice(0, 2).forEach(function (p, i) {
        form.querySelector("[name=poignee_seat_" + (i + 1) + "]").value = p[0];
        form.querySelector("[name=poignee_size_" + (i + 1) + "]").value = p[1];
      });
      check("petit_au_bout", deal.petit_au_bout || "");
      form.querySelector("[name=chelem]").value = deal.chelem === "attack"
        ? (deal.chelem_announced ? "announced_made" : "made")
        : deal.chelem === "defense" ? "defense" : (deal.chelem_announced ? "announced_failed" : "");
    }
    $("fix-note").textContent = fill(_("Correction de la donne %(number)s : changez ce qui est faux puis enregistrez."), { number: number }, true);
    $("fix-note").hidden = false;
    $("fix-cancel").hidden = false;
    showState();
    toForm();
    preview();
  }

  function sendFix(deal) {
    var number = fixing;
    post(app.dataset.urlDeal + number + "/", { version: sheetData().version, deal: deal }).then(function (answer) {
      if (answer.status === 200) {
        resetForm();
        $("entry-error").textContent = fill(_("Donne %(number)s corrigée : elle attend une nouvelle confirmation."), { number: number }, true);
        refreshSheet();
      } else {
        $("entry-error").textContent = answer.data.error || _("Donne refusée.");
        if (answer.status === 409) refreshSheet();
      }
    }).catch(function () { $("entry-error").textContent = _("Hors ligne : réessayez quand le Wi-Fi revient."); });
  }

  form.addEventListener("change", function (event) {
    if (event.target.name === "taker") {
      $("played-fields").hidden = event.target.value === "passed";
    }
    preview();
  });
  form.addEventListener("input", preview);

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!isBound()) { $("entry-error").textContent = _("Identifiez-vous d'abord : votre nom et votre code personnel, en haut de la page."); $("who-seat").focus(); return; }
    var built = buildDeal();
    if (built.error) { $("entry-error").textContent = built.error; return; }
    if (fixing !== null) { sendFix(built.deal); return; }
    if (sheetFull()) { showState(); return; }
    // The number and sheet version it is typed against travel with it, however late it goes.
    queueStore.add({ client_id: newId(), number: nextDeal().number, version: sheetData().version, deal: built.deal });
    showState();
    resetForm();
    // Back to the top of the form: the next deal starts with its taker.
    toForm();
    flush();
  });

  $("who-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var seat = $("who-seat").value;
    var pin = $("who-pin").value.trim();
    if (seat === "" || !/^\d{4,8}$/.test(pin)) { $("who-message").textContent = _("Choisissez votre nom et tapez votre code personnel."); return; }
    post(app.dataset.urlIdentify, { seat: parseInt(seat, 10), pin: pin }).then(function (answer) {
      $("who-pin").value = "";
      if (answer.status === 200) {
        $("who-message").textContent = "";
        showWho(true, answer.data.name);
        refreshSheet();
        flush();
      } else {
        $("who-message").textContent = answer.data.error || _("Refusé.");
      }
    }).catch(function () { $("who-message").textContent = _("Hors ligne : réessayez quand le Wi-Fi revient."); });
  });
  $("who-forget").addEventListener("click", function () {
    post(app.dataset.urlForget, {}).then(function () { showWho(false); refreshSheet(); })
      .catch(function () { $("who-message").textContent = _("Hors ligne : réessayez quand le Wi-Fi revient."); });
  });
  $("fix-cancel").addEventListener("click", resetForm);
  $("sheet-holder").addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".fix-deal") : null;
    if (button) startFix(button.dataset.number);
  });

  $("conflict-resend").addEventListener("click", function () {
    $("conflict-box").hidden = true;
    blocked = false;
    flush();
  });
  $("conflict-drop").addEventListener("click", function () { dropQueued($("conflict-box").dataset.clientId); });
  $("conflict-keep").addEventListener("click", function () { dropQueued($("conflict-box").dataset.clientId); });
  $("conflict-replace").addEventListener("click", replaceStored);

  // A code typed acts for its player (a phone passed around the table); with none, a phone
  // bound to its player acts for them without the code typed again.
  function withCode(url, done, extra) {
    var seat = $("confirm-seat").value;
    var pin = $("confirm-pin").value.trim();
    var message = $("confirm-message");
    var body = {};
    if (pin || !isBound()) {
      if (seat === "" || !/^\d{4,8}$/.test(pin)) { message.textContent = _("Choisissez votre nom et tapez votre code personnel."); return; }
      body = { seat: parseInt(seat, 10), pin: pin };
    }
    Object.keys(extra || {}).forEach(function (key) { body[key] = extra[key]; });
    post(url, body).then(function (answer) {
      $("confirm-pin").value = "";
      message.textContent = answer.status === 200 ? done(answer.data) : (answer.data.error || _("Refusé."));
      message.className = answer.status === 200 ? "ok" : "errorlist";
      refreshSheet();
    }).catch(function () { message.textContent = _("Hors ligne : réessayez quand le Wi-Fi revient."); });
  }

  $("confirm-form").addEventListener("submit", function (event) {
    event.preventDefault();
    // The deals listed under the sheet and the sheet they were read on: only those are
    // confirmed; if a deal changed since, the server refuses and the player reads again.
    var shown = Array.prototype.map.call(document.querySelectorAll("#confirm-list [data-deal]"),
      function (item) { return parseInt(item.dataset.deal, 10); });
    if (!shown.length) { $("confirm-message").textContent = _("Aucune donne à confirmer."); return; }
    withCode(app.dataset.urlConfirm, function (data) {
      var text = fill(data.confirmed.length === 1 ? _("Donne %(numbers)s confirmée.")
        : _("Donnes %(numbers)s confirmées."), { numbers: data.confirmed.join(", ") }, true);
      return data.left ? text + " " + data.left : text;
    }, { version: sheetData().version, deals: shown });
  });
  $("contest-button").addEventListener("click", function () {
    var number = parseInt($("contest-number").value, 10);
    if (!number) { $("confirm-message").textContent = _("Indiquez le numéro de la donne à contester."); return; }
    withCode(app.dataset.urlContest, function (data) {
      return fill(data.referred ? _("Donne %(number)s contestée : l'arbitre décide.")
        : _("Donne %(number)s contestée : la personne qui l'a saisie doit la corriger."), { number: data.contested }, true);
    }, { number: number, note: $("contest-note").value });
  });
  // The table's call as the server last said it (every phone of the table shows it, a reload
  // too): "sent" until an arbiter clicks "J'y vais" on the desk, then "coming".
  function showCall() {
    var state = $("call-state");
    var banner = $("call-banner");
    if (!state) return;
    banner.hidden = !state.dataset.call;
    banner.textContent = state.textContent.trim();
    banner.className = "notice call-banner" + (state.dataset.call === "taken" ? " ok" : "");
  }

  $("call-button").addEventListener("click", function () {
    // A general call: no deal number (the contest box's number is for contests).
    post(app.dataset.urlCall, { number: null }).then(function (answer) {
      if (answer.status === 200) {
        $("call-message").textContent = "";
        var banner = $("call-banner");
        if (banner.hidden) {
          banner.textContent = _("Appel envoyé, l'arbitre va venir.");
          banner.hidden = false;
        }
        refreshSheet();
      } else {
        $("call-message").textContent = answer.data.error || _("Refusé.");
      }
    }).catch(function () { $("call-message").textContent = _("Hors ligne : faites signe à l'arbitre."); });
  });
  function signatureText(data) {
    return data.status === "complete" ? _("Feuille terminée, visée par toute la table : l'arbitre va la valider. Plus rien à saisir à cette table.")
      : fill(_("Feuille visée. Doivent encore la viser : %(names)s."), { names: data.missing.join(", ") }, true);
  }
  $("finish-button").addEventListener("click", function () {
    // A code typed signs for its player; without one, this phone's own player signs.
    withCode(app.dataset.urlFinish, signatureText);
  });

  window.addEventListener("online", function () { setStatus(true); flush(); refreshSheet(); });
  window.addEventListener("offline", function () { setStatus(false); });
  // Another tab of this table added, sent or dropped a deal: this tab's list and next number
  // follow (an old page's list-form queue written meanwhile is split into keys too).
  window.addEventListener("storage", function (event) {
    if (event.key !== null && !queueStore.owns(event.key)) return;
    if (event.key === queueStore.legacyKey) queueStore.migrate();
    showState();
  });
  setInterval(function () { flush(); if (!readQueue().length || blocked) refreshSheet(); }, 5000);

  setStatus(navigator.onLine);
  showState();
  flush();

  // Plain http on a club's LAN has no service worker: a reload without Wi-Fi can't open this
  // page, so the player keeps it at hand (the deals wait in the phone's storage meanwhile).
  if (!window.isSecureContext || !("serviceWorker" in navigator)) $("keep-hint").hidden = false;

  // Keep this page on the phone: a reload without Wi-Fi still opens it with its waiting deals.
  if ("serviceWorker" in navigator && window.caches) {
    navigator.serviceWorker.register(app.dataset.urlSw, { scope: "/table/" }).then(function () {
      return caches.open("tarot-table-v1").then(function (cache) {
        var assets = Array.prototype.map.call(
          document.querySelectorAll("link[rel=stylesheet], script[src]"),
          function (node) { return node.href || node.src; });
        return cache.addAll([location.href].concat(assets));
      });
    }).catch(function () { /* no offline copy: entering still works online */ });
  }
})();
