// Package provider is the one package that talks to language models: it
// calls providers through langchaingo (and the AWS and Google clients) with
// timeouts, retries and llm's shared limiter, and turns their replies into
// judge verdicts, cached and priced.
package provider
