// reported at line 2
setTimeout(function spin() {
  while (true) {}
}, 1);
