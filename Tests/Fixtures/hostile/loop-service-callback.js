// reported at line 2
hybrid.call('device.info').then(function spin() {
  while (true) {}
});
