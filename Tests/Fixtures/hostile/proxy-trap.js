// reported at line 7
const params = new Proxy({}, {
  ownKeys() { return ['key']; },
  getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true }; },
  get() { throw new Error('the trap refuses'); },
});
hybrid.call('storage.get', params);
