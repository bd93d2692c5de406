// reported at line 4
let value = [];
for (let i = 0; i < 20000; i += 1) value = [value];
hybrid.call('storage.set', { key: 'deep', value });
