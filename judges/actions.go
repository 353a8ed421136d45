package judges

// addActionGroup registers the action_group scorer.
func addActionGroup(r Registry) {}
