// SPEC §3's URL and URLSearchParams, after the WHATWG URL Standard. Evaluated once per
// context, after the prelude; defines the two globals and returns nothing for Swift.
(function () {
  'use strict';
})
