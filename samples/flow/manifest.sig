{"keyId": "fe812c12f3ab4ce6", "alg": "ed25519", "sig": "rXdI9ib6pyacntK2selz6WtuG5YKob1r8ZA7OzYjterDssmIV+5BCTfrXyJmoWaGtAddefk4usXoJCnt32uWDg=="}
