// reported at line 4
const value = { name: 'loop' };
value.self = value;
hybrid.call('storage.set', { key: 'cyclic', value });
