package score

import "context"

// judgeKey is the context key of the judge scorers ask (WithJudge).
type judgeKey struct{}

// WithJudge returns ctx carrying j, the judge that scorers built with
// ContextJudge ask when they score under it; a nil j returns ctx as is.
func WithJudge(ctx context.Context, j Judge) context.Context {
	if j == nil {
		return ctx
	}
	return context.WithValue(ctx, judgeKey{}, j)
}

// JudgeFrom returns the judge ctx carries (WithJudge); nil when none.
func JudgeFrom(ctx context.Context) Judge {
	j, _ := ctx.Value(judgeKey{}).(Judge)
	return j
}

// ContextJudge is the judge a scorer is built with when the judge is
// handed over at scoring time rather than when building: it asks the judge
// the call's context carries, so one built scorer serves every run, with
// or without a judge.
type ContextJudge struct{}

var _ Judge = ContextJudge{}

// Assess asks the judge ctx carries; without one it fails as a provider
// error, never a verdict.
func (ContextJudge) Assess(ctx context.Context, system, user string) (Assessment, error) {
	j := JudgeFrom(ctx)
	if j == nil {
		return Assessment{}, &Error{Kind: KindProviderError, Message: "no judge in the scoring context"}
	}
	return j.Assess(ctx, system, user)
}
