// reported at line 2
Promise.resolve().then(function spin() {
  while (true) {}
});
setTimeout(() => console.log('the timer after the runaway runs'), 5);
