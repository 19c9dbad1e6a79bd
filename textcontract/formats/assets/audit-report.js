(function () {
  "use strict";
  var buttons = Array.prototype.slice.call(document.querySelectorAll("#filters button[data-filter]"));
  var variants = Array.prototype.slice.call(document.querySelectorAll(".variant"));
  var cases = Array.prototype.slice.call(document.querySelectorAll(".case"));
  var shown = document.getElementById("shown");
  function apply(filter) {
    var visible = 0;
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-filter") === filter));
    });
    variants.forEach(function (variant) {
      variant.hidden = filter !== "all" && variant.getAttribute("data-group") !== filter;
      if (!variant.hidden) { visible += 1; }
    });
    cases.forEach(function (section) {
      section.hidden = section.querySelector(".variant:not([hidden])") === null;
    });
    shown.textContent = String(visible);
  }
  buttons.forEach(function (button) {
    button.addEventListener("click", function () { apply(button.getAttribute("data-filter")); });
  });
}());
