// The phone navigation's menu (a <details> element, which opens without JavaScript): Escape closes it, and
// gives the focus back to its toggle when the focus was in it, as a disclosure menu's Escape does.
(function () {
  'use strict';
  var menu = document.querySelector('details.nav-narrow');
  if (!menu) return;
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape' || !menu.open) return;
    var focusWasInMenu = menu.contains(document.activeElement);
    menu.open = false;
    if (focusWasInMenu) menu.querySelector('summary').focus();
  });
})();
