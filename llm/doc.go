// Package llm is how a model is named and paced, with no model SDK: the
// settings of a judge or an llm agent and their validation, the retry
// bounds, and the limiter shared by every client of one endpoint. Package
// provider calls the models.
package llm
