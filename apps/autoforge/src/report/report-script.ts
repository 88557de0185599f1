/**
 * The report's only script (inline, ES2017, no dependencies): the trajectory viewer's list and
 * filters, links to messages of another trajectory, and highlighting a diagram node's edges on
 * hover. Everything it shows was rendered and escaped in Node; it only toggles classes.
 */
export const REPORT_SCRIPT = String.raw`(function () {
  'use strict';
  var items = Array.prototype.slice.call(document.querySelectorAll('.traj-item'));
  var panes = Array.prototype.slice.call(document.querySelectorAll('article.traj'));
  var reward = document.getElementById('filter-reward');
  var verdict = document.getElementById('filter-verdict');
  var count = document.getElementById('traj-count');
  function show(target) {
    items.forEach(function (b) { b.classList.toggle('active', b.getAttribute('data-target') === target); });
    panes.forEach(function (a) { a.classList.toggle('active', a.id === target); });
  }
  function apply() {
    var r = reward ? reward.value : 'all';
    var v = verdict ? verdict.value : 'all';
    var visible = items.filter(function (b) {
      var ok = (r === 'all' || b.getAttribute('data-reward') === r) && (v === 'all' || b.getAttribute('data-verdict') === v);
      b.parentNode.hidden = !ok;
      return ok;
    });
    if (count) count.textContent = visible.length + ' of ' + items.length + ' trajectories shown';
    var current = visible.filter(function (b) { return b.classList.contains('active'); })[0];
    if (!current) show(visible.length ? visible[0].getAttribute('data-target') : '');
  }
  items.forEach(function (b) {
    b.addEventListener('click', function () { show(b.getAttribute('data-target')); });
  });
  if (reward) reward.addEventListener('change', apply);
  if (verdict) verdict.addEventListener('change', apply);
  function fromHash() {
    var match = /^#(traj-\d+)/.exec(window.location.hash);
    if (match && document.getElementById(match[1])) show(match[1]);
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
  Array.prototype.forEach.call(document.querySelectorAll('svg.diagram'), function (svg) {
    var edges = Array.prototype.slice.call(svg.querySelectorAll('g.edge'));
    Array.prototype.forEach.call(svg.querySelectorAll('g.node'), function (node) {
      var id = node.getAttribute('data-node');
      node.addEventListener('mouseenter', function () {
        svg.classList.add('focus');
        node.classList.add('lit');
        edges.forEach(function (e) {
          if (e.getAttribute('data-from') === id || e.getAttribute('data-to') === id) e.classList.add('lit');
        });
      });
      node.addEventListener('mouseleave', function () {
        svg.classList.remove('focus');
        node.classList.remove('lit');
        edges.forEach(function (e) { e.classList.remove('lit'); });
      });
    });
  });
})();`;
