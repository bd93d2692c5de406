// reported at line 3
const kept = [];
while (true) kept.push(new Array(100000).fill(1));
