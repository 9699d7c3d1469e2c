// Runs before the app: sets the saved colour scheme so the first paint is already right (no flash).
(function () {
  try {
    var theme = window.localStorage.getItem('theme');
    var accent = window.localStorage.getItem('accent');
    var root = document.documentElement;
    root.setAttribute('data-mantine-color-scheme', theme === 'dark' ? 'dark' : 'light');
    root.setAttribute('data-accent', accent === 'teal' || accent === 'purple' ? accent : 'cyan');
    root.style.colorScheme = theme === 'dark' ? 'dark' : 'light';
  } catch (e) {
    /* storage blocked: the defaults apply */
  }
})();
