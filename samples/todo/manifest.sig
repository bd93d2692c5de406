{"keyId": "fe812c12f3ab4ce6", "alg": "ed25519", "sig": "POJSMsItzy+NtqCvdeJF+XWC3Co7A1mZQYs2lB5Z8yGehGtKEZSq6SzTiWRnr6IlTuJkUDZeqtBHIMk5jCdUBg=="}
