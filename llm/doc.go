// Package llm is the one package that talks to language models: it calls
// providers through langchaingo with timeouts, retries and a shared rate
// limiter, and turns their replies into judge verdicts, cached and priced.
package llm
