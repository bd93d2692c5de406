// reported at line 3, or 4 when the check inside a run of the interval comes first (a busy machine)
const kept = [];
setInterval(() => {
  for (let i = 0; i < 20; i += 1) kept.push(new Array(100000).fill(i));
}, 1);
