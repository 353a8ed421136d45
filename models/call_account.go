package models

import (
	"encoding/json"
	"sort"
)

// CallAccount is the usage of judge calls: per metric in a case's
// response_metadata.judge_usage and summed in the run summary's
// judge_usage. It is never agent usage.
//
// A call is one verdict asked of the model: its retries are attempts of the
// same call, and a failed call still counts with whatever usage the
// provider reported for it (an unusable reply is billed like a good one).
// A verdict served from the judge cache is not a call: it is counted in
// Cached, with no tokens and no cost, because nothing was spent on it now.
type CallAccount struct {
	// Calls counts verdicts asked of the model, failed ones included.
	Calls int64 `json:"calls"`
	// Errors counts the calls that ended without a verdict.
	Errors int64 `json:"errors"`
	// Attempts counts the requests of those calls, retries included.
	Attempts int64 `json:"attempts"`
	// Cached counts verdicts served from the judge cache (no call made).
	Cached       int64 `json:"cached"`
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	// Cost is in USD; nil (JSON null) when the price of any counted call is
	// unknown (a custom endpoint, an unlisted model), never 0 for unknown.
	// Cache hits cost 0 and never make it unknown.
	Cost *float64 `json:"cost"`
}

// Empty reports whether the account counts nothing.
func (a CallAccount) Empty() bool { return a.Calls == 0 && a.Cached == 0 }

// Add returns the sum of a and b; the cost stays known only when both
// are known (an empty account adds nothing).
func (a CallAccount) Add(b CallAccount) CallAccount {
	switch {
	case b.Empty():
		return a
	case a.Empty():
		return b.Clone()
	}
	sum := CallAccount{
		Calls: a.Calls + b.Calls, Errors: a.Errors + b.Errors, Attempts: a.Attempts + b.Attempts, Cached: a.Cached + b.Cached,
		InputTokens: a.InputTokens + b.InputTokens, OutputTokens: a.OutputTokens + b.OutputTokens,
	}
	if a.Cost != nil && b.Cost != nil {
		c := *a.Cost + *b.Cost
		sum.Cost = &c
	}
	return sum
}

// Clone returns a copy that shares nothing with a.
func (a CallAccount) Clone() CallAccount {
	if a.Cost != nil {
		c := *a.Cost
		a.Cost = &c
	}
	return a
}

// JudgeUsage is a case's response_metadata.judge_usage: the judge account
// of each metric a judge was asked about, by metric name.
type JudgeUsage map[string]CallAccount

// UnmarshalJSON reads the accounts. An entry written before calls were
// counted ({input_tokens, output_tokens, cost} of one verdict) reads as one
// call of one attempt; missing errors and cached read as 0.
func (u *JudgeUsage) UnmarshalJSON(b []byte) error {
	var entries map[string]struct {
		CallAccount
		Calls    *int64 `json:"calls"`
		Attempts *int64 `json:"attempts"`
	}
	if err := json.Unmarshal(b, &entries); err != nil {
		return err
	}
	if entries == nil {
		*u = nil
		return nil
	}
	out := make(JudgeUsage, len(entries))
	for name, e := range entries {
		acc := e.CallAccount
		acc.Calls, acc.Attempts = 1, 1
		if e.Calls != nil {
			acc.Calls, acc.Attempts = *e.Calls, *e.Calls
		}
		if e.Attempts != nil {
			acc.Attempts = *e.Attempts
		}
		out[name] = acc
	}
	*u = out
	return nil
}

// Names returns the metric names in sorted order.
func (u JudgeUsage) Names() []string {
	names := make([]string, 0, len(u))
	for name := range u {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Total sums the accounts in metric-name order (a fixed order keeps the
// cost sum reproducible).
func (u JudgeUsage) Total() CallAccount {
	var t CallAccount
	for _, name := range u.Names() {
		t = t.Add(u[name])
	}
	return t
}
