// Set the theme before the first paint so nobody sees the wrong one flash; the same rules as
// src/theme/theme-rules.ts (stored choice, else auto: light 06:00 to before 18:00).
(function () {
  var choice = null;
  try {
    choice = localStorage.getItem('tickerbell:theme');
  } catch (e) {}
  var hour = new Date().getHours();
  var theme = choice === 'light' || choice === 'dark' ? choice : hour >= 6 && hour < 18 ? 'light' : 'dark';
  document.documentElement.dataset.theme = theme;
})();
