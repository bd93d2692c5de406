// @ts-check
// The signup sample: the screen is plain JSON; every rule lives here. Each field's onChange
// (and onSubmit) runs `validate` for that field, so a message appears as soon as a value is
// wrong and goes away as soon as it is fixed; Submit checks everything and shows either a
// summary or the first problem.

const PLANS = { free: 'Free', pro: 'Pro', team: 'Team' };

// Each rule returns a message, or '' when the value is fine.
const RULES = {
  name(value) {
    const name = String(value || '').trim();
    if (!name) return 'name: required';
    if (name.length < 2) return 'name: at least 2 letters';
    return '';
  },
  email(value) {
    const email = String(value || '').trim();
    if (!email) return 'email: required';
    const at = email.indexOf('@');
    if (at < 0) return 'email: needs an @';
    if (at === 0) return 'email: needs a name before @';
    if (/\s/.test(email)) return 'email: no spaces';
    const domain = email.slice(at + 1);
    if (domain.indexOf('.') <= 0 || domain.endsWith('.')) return 'email: needs a domain (x.com)';
    return '';
  },
  password(value) {
    const password = String(value || '');
    if (!password) return 'password: required';
    if (password.length < 8) return `password: ${8 - password.length} more characters`;
    return '';
  },
  plan(value) {
    return PLANS[value] ? '' : 'plan: choose one';
  },
  terms(value) {
    return value === true ? '' : 'terms: please accept';
  },
};
const FIELDS = Object.keys(RULES);

function check(field) {
  const message = RULES[field](state.get(`form.${field}`));
  state.set(`errors.${field}`, message);
  return message;
}

// One handler for every field: the event names the widget by its id.
ui.handler('validate', (event) => {
  if (!RULES[event.id]) return;
  check(event.id);
  // An earlier summary no longer describes the form.
  state.set('result', '');
});

ui.handler('submit', () => {
  const problems = FIELDS.map(check).filter((message) => message);
  if (problems.length > 0) {
    const count = problems.length === 1 ? '1 field needs' : `${problems.length} fields need`;
    state.set('ok', false);
    state.set('result', `✘ ${count} attention. First: ${problems[0]}`);
    return;
  }
  const form = state.get('form');
  state.set('ok', true);
  state.set('result', `✔ Welcome, ${form.name.trim()}! ${PLANS[form.plan]} plan; mail goes to ${form.email.trim()}`);
});

ui.handler('reset', () => {
  state.set('form', { name: '', email: '', password: '', plan: '', terms: false });
  state.set('errors', { name: '', email: '', password: '', plan: '', terms: '' });
  state.set('result', '');
  state.set('ok', false);
});

hybrid.ready();
