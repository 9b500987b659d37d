# Test fixture: the group's evaluator lives here in GPU MODE's layout; not used by the app.
