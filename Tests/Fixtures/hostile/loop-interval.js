// reported at line 2
setInterval(function spin() {
  while (true) {}
}, 1);
