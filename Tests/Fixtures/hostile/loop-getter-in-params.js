// reported at line 3
const params = {
  get key() { while (true) {} },
};
hybrid.call('storage.get', params);
