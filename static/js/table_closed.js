// A closed position's table page: the deals this phone still holds (typed without Wi-Fi, or
// while the arbiter was closing) go to the server, which keeps them as late deals for the
// arbiter to accept or reject; each leaves the phone once the server has it.
(function () {
  "use strict";
  var status = document.getElementById("late-status");
  if (!status) return;
  var _ = window.gettext || function (text) { return text; };
  // One storage key per deal (static/js/table_queue.js); an older page's list is split first.
  var store = new window.TableQueue(status.dataset.token);

  function csrfToken() {
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    var field = status.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function queue() {
    try { return store.list(); } catch (e) { return []; }
  }

  function send() {
    var held = queue();
    if (!held.length) return;
    status.textContent = _("Envoi à l'arbitre des donnes restées sur ce téléphone…");
    var item = held[0];
    if (!navigator.onLine) { offline(); return; }
    fetch(status.dataset.urlDeal, {
      method: "POST",
      credentials: "same-origin",
      // A refusal comes back as status 200 with its own in `refused`: shown, not logged.
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), "X-Refusal-Answer": "body" },
      body: JSON.stringify(item),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        var answered = data.refused || response.status;
        if (answered === 202 || answered === 200 || answered === 201) {
          store.remove(item.client_id);
          status.textContent = data.message || _("Donne reçue après la clôture : l'arbitre décidera.");
          send();
        } else {
          // Kept on the phone: the arbiter sees the table's call or the player shows the phone.
          status.textContent = (data.error || _("Donne refusée.")) + " " + _("Elle reste sur ce téléphone : montrez-la à l'arbitre.");
        }
      });
    }).catch(offline);
  }

  function offline() {
    status.textContent = _("Hors ligne : les donnes restent sur ce téléphone et partiront au retour du Wi-Fi.");
    setTimeout(send, 5000);
  }

  send();
})();
