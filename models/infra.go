package models

// InfrastructureFailureKey is the run summary key that marks a run in
// which every agent call, or every judge call, failed from infrastructure
// (connection refused or reset, DNS, timeouts, gateway and provider
// outages). Its value is an object naming the side and what failed, e.g.
// {"agent": "http: … connection refused (50 of 50 calls)"}. A run whose
// summary holds the key with a non-null value is never an automatic
// baseline.
const InfrastructureFailureKey = "infrastructure_failure"
