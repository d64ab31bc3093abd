// Draws the overview's "notifications per hour" chart from /console/api/activity with uPlot
// (served from the receiver's own node_modules). Data arrives as JSON and is only ever given to
// uPlot as numbers and legend labels (uPlot sets labels with textContent).
(function () {
  'use strict';
  var el = document.getElementById('activity-chart');
  if (!el || typeof uPlot === 'undefined') return;

  fetch(el.getAttribute('data-src'), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then(function (res) { if (!res.ok) throw new Error('HTTP ' + res.status); return res.json(); })
    .then(function (activity) {
      // The labels come from the page, in its language (data-label-* attributes).
      var series = [{ label: el.getAttribute('data-label-hour') || 'hour (KST)', value: function (u, v) { return v == null ? '' : kst(v); } }];
      var data = [activity.hours];
      // Each type by its name in the page's language, its code beside (data-type-names, JSON).
      var names = {};
      try { names = JSON.parse(el.getAttribute('data-type-names') || '{}'); } catch (ignored) { names = {}; }
      // Each series' colour is the server's (one per type, never two alike).
      activity.series.forEach(function (s) {
        var name = Object.prototype.hasOwnProperty.call(names, s.type) ? names[s.type] + ' (' + s.type + ')' : s.type;
        series.push({ label: name, stroke: s.colour, width: 2, points: { show: true, size: 5 } });
        data.push(s.counts);
      });
      if (activity.series.length === 0) {
        series.push({ label: el.getAttribute('data-label-empty') || 'notifications', stroke: '#9ca3af', width: 1 });
        data.push(activity.hours.map(function () { return 0; }));
      }
      new uPlot({
        width: Math.max(320, el.clientWidth),
        height: 240,
        legend: { live: false },
        series: series,
        scales: { x: { time: true }, y: { range: function (u, min, max) { return [0, Math.max(4, max)]; } } },
        axes: [{ values: function (u, ticks) { return ticks.map(function (t) { return kst(t).slice(11, 16); }); } }, { label: el.getAttribute('data-label-axis') || 'per hour' }],
      }, data, el);
    })
    .catch(function (error) { el.textContent = (el.getAttribute('data-label-unavailable') || 'Chart unavailable: ') + error.message; });

  function kst(seconds) {
    return new Date(seconds * 1000 + 9 * 3600 * 1000).toISOString().slice(0, 16).replace('T', ' ');
  }
})();
