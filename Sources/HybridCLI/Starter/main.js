// @ts-check
// The app's behaviour. The screen shows the app store (`store`), so a handler only changes the
// store: every screen that reads it is drawn again. See types/hybridterm.d.ts for every global.

ui.handler('press', () => {
  store.set('presses', store.get('presses') + 1);
});

// Tells the runtime this version started well (a version that never says so is rolled back).
hybrid.ready();
