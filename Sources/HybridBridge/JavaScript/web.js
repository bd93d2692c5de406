// SPEC §3's everyday web globals.
(function (native, serviceError) {
  'use strict';
})
