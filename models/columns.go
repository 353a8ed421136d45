package models

// Column is one JSON column of a case row, by its name in the table.
type Column struct {
	Name  string
	Value *JSON
}

// AgentColumns are the case's JSON columns written by the agent and its
// scorers: output, actions, response_metadata and error_details. They are
// untrusted, so a live run and an imported file repair and redact them
// alike before they are stored.
func (c *CaseResult) AgentColumns() []Column {
	return []Column{{"output", &c.Output}, {"actions", &c.Actions},
		{"response_metadata", &c.ResponseMetadata}, {"error_details", &c.ErrorDetails}}
}

// DefinitionColumns are the case's JSON columns that come from the suite
// author: question, expected_answer, expected_actions, minimum_scores and
// metadata.
func (c *CaseResult) DefinitionColumns() []Column {
	return []Column{{"question", &c.Question}, {"expected_answer", &c.ExpectedAnswer},
		{"expected_actions", &c.ExpectedActions}, {"minimum_scores", &c.MinimumScores}, {"metadata", &c.Metadata}}
}
