// The console works without this file; it only adds conveniences.
// Forms marked data-confirm ask once more before a destructive action.
document.addEventListener("submit", (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (question && !window.confirm(question)) event.preventDefault();
});
