// @ts-check
// The live sample: one interval timer drives the whole dashboard by setting state — the
// progress bars, the spinner's label, the counters and the table of recent events. Pausing
// only stops the timer from changing anything, so what is on screen stays put.
const TICK_MS = 100;
const STEPS_PER_JOB = 10;
const MAX_EVENTS = 8;
const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

let timer = null;

function log(kind, message) {
  const events = [[String(state.get('ticks')), kind, message], ...state.get('events')];
  state.set('events', events.slice(0, MAX_EVENTS));
}

// Loads that move like real ones but are a function of the tick count alone.
function wave(tick, period, low, high) {
  return low + (high - low) * (0.5 + 0.5 * Math.sin((2 * Math.PI * tick) / period));
}

function step() {
  if (!state.get('running')) return;
  const tick = state.get('ticks') + 1;
  state.set('ticks', tick);
  state.set('frame', FRAMES[tick % FRAMES.length]);
  state.set('cpu', wave(tick, 23, 0.15, 0.95));
  state.set('memory', wave(tick, 61, 0.4, 0.8));
  state.set('queue', wave(tick, 37, 0.0, 1.0));

  const jobStep = state.get('jobStep') + 1;
  if (jobStep >= STEPS_PER_JOB) {
    const job = state.get('job');
    state.set('done', state.get('done') + 1);
    log('build', `job #${job} finished`);
    state.set('job', job + 1);
    state.set('jobStep', 0);
  } else {
    state.set('jobStep', jobStep);
  }
  state.set('build', state.get('jobStep') / STEPS_PER_JOB);
  if (tick % 7 === 0) {
    state.set('warnings', state.get('warnings') + 1);
    log('warn', `runner ${1 + (tick % 3)} is slow to answer`);
  }
}

ui.handler('live.start', () => {
  log('info', 'dashboard started');
  if (timer === null) timer = setInterval(step, TICK_MS);
  hybrid.ready();
});

ui.handler('live.toggle', () => {
  const running = !state.get('running');
  state.set('running', running);
  if (running) {
    log('info', `resumed at tick ${state.get('ticks')}`);
  } else {
    state.set('pausedAt', state.get('ticks'));
    log('info', `paused at tick ${state.get('ticks')}`);
  }
});

ui.handler('live.reset', () => {
  for (const [path, value] of Object.entries({ ticks: 0, pausedAt: 0, job: 1, done: 0, warnings: 0, build: 0, jobStep: 0, cpu: 0, memory: 0, queue: 0, events: [] })) {
    state.set(path, value);
  }
  log('info', 'counters reset');
});
