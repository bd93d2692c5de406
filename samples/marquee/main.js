// @ts-check
// A view no native code provides: the marquee component is built by this script, and a
// timer moves it along by changing the screen's state.
ui.component('marquee', (props) => {
  const text = `${props.text}   ·   `;
  const start = props.offset % text.length;
  const shown = (text + text).slice(start, start + props.width);
  return { type: 'text', text: shown, style: { bold: true, color: 'yellow', wrap: 'none' } };
});

setInterval(() => {
  if (state.get('running')) state.set('offset', state.get('offset') + 1);
}, 120);

ui.handler('toggle', () => state.set('running', !state.get('running')));

hybrid.ready();
