package models

// JudgeSpend is the summary's record of a judge spend cap (the summary's
// judge_spend key): the cap, what the judge's metric calls cost, whether
// the cost reached the cap, and how many judged metrics were then not
// calculated (their rows say why).
type JudgeSpend struct {
	Limit         Decimal `json:"limit"`
	Spent         Decimal `json:"spent"`
	Reached       bool    `json:"reached"`
	NotCalculated int     `json:"not_calculated"`
}
