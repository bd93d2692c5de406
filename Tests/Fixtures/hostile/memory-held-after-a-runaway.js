// reported at line 3
const kept = [];
setTimeout(() => { while (true) kept.push(new Array(100000).fill(1)); }, 1);
// What the runaway left held is not blamed on later work: these jobs all run, unreported.
let ran = 0;
setTimeout(() => { for (let i = 0; i < 200; i += 1) Promise.resolve(i).then(() => { ran += 1; }); }, 5);
setTimeout(() => { if (ran !== 200) throw new Error(`only ${ran} of 200 jobs ran`); }, 20);
