// The deals a phone holds unsent for one table, kept in the browser's storage one key per deal.
// Two tabs of the same table (a QR code scanned twice) each add, send and drop only their own
// deal's key: no tab ever writes back a whole list, so no tab can erase a deal the other added.
// A list-form queue left by an older page is split into keys on load, nothing lost.
(function () {
  "use strict";

  function TableQueue(token) {
    this.legacyKey = "tarot-queue-" + token;
    this.prefix = "tarot-deal-" + token + ":";
    this.migrate();
  }

  TableQueue.prototype.owns = function (key) {
    return key === this.legacyKey || (typeof key === "string" && key.indexOf(this.prefix) === 0);
  };

  TableQueue.prototype.keys = function () {
    var found = [];
    for (var i = 0; i < localStorage.length; i++) {
      var key = localStorage.key(i);
      if (key && key.indexOf(this.prefix) === 0) found.push(key);
    }
    return found;
  };

  // The waiting deals, oldest first: by the number each was typed under, then by when it was
  // kept (a deal queued by an older page has no number and goes first, as it did there).
  TableQueue.prototype.list = function () {
    var entries = [];
    this.keys().forEach(function (key) {
      var entry;
      try { entry = JSON.parse(localStorage.getItem(key)); } catch (e) { entry = null; }
      if (entry && entry.item) entries.push(entry);
    });
    entries.sort(function (a, b) {
      return ((a.item.number || 0) - (b.item.number || 0)) || ((a.at || 0) - (b.at || 0));
    });
    return entries.map(function (entry) { return entry.item; });
  };

  TableQueue.prototype.add = function (item, at) {
    var key = this.prefix + (item.number || 0) + ":" + item.client_id;
    localStorage.setItem(key, JSON.stringify({ at: at === undefined ? Date.now() : at, item: item }));
  };

  TableQueue.prototype.remove = function (clientId) {
    var suffix = ":" + clientId;
    this.keys().forEach(function (key) {
      if (key.slice(-suffix.length) === suffix) localStorage.removeItem(key);
    });
  };

  // Each deal of an older page's list gets its own key before the list goes: a phone updated
  // mid-evening keeps every deal it held (a deal already keyed is not added twice).
  TableQueue.prototype.migrate = function () {
    var raw = localStorage.getItem(this.legacyKey);
    if (raw === null) return;
    var list;
    try { list = JSON.parse(raw); } catch (e) { list = null; }
    if (!Array.isArray(list)) return; // unreadable: left as it is for the arbiter to see
    var held = {};
    this.list().forEach(function (item) { held[item.client_id] = true; });
    var self = this;
    list.forEach(function (item, index) {
      if (item && item.client_id && !held[item.client_id]) self.add(item, index);
    });
    localStorage.removeItem(this.legacyKey);
  };

  window.TableQueue = TableQueue;
})();
