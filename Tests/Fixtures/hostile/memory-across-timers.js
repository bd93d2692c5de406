// reported at line 3
const kept = [];
setInterval(() => {
  for (let i = 0; i < 20; i += 1) kept.push(new Array(100000).fill(i));
}, 1);
