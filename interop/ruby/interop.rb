# frozen_string_literal: true

# Driven by interop_test.go. Connects to DATABASE_URL (TCP; Rails 6.1
# ignores ?host=) in schema EVAL_SCHEMA and runs one command:
#
#   schema gem | gem-0.1 | FILE   create the tables (gem style, 0.1-era, or a migration file)
#   write FIXTURE [INDEX [STARTED_AT]]
#                                 write the fixture's runs (or one of them at another time)
#                                 through nested attributes; print them as dump does
#   dump                          print every run, newest first, with its cases and metrics
#   write-versions FIXTURE INDEX N STARTED_AT
#                                 write N copies of one fixture run, versions v1..vN, one second apart
#   count MODEL WHERE             count run|case|metric records matching a where(...) hash given as JSON
#   snapshot                      every run's Run#snapshot, and the validation errors of the run,
#                                 its cases and their metrics (empty when the gem accepts them)
#
# Output is JSON on stdout.

require "json"
require "bigdecimal"
require "time"
require_relative "models"

ActiveRecord::Base.default_timezone = :utc
config = { url: ENV.fetch("DATABASE_URL") }
config[:schema_search_path] = ENV["EVAL_SCHEMA"] if ENV["EVAL_SCHEMA"]
ActiveRecord::Base.establish_connection(config)
ActiveRecord::Migration.verbose = false

E = RubyLLM::Evaluations

def time_text(t)
  t&.utc&.iso8601(6)
end

def decimal_text(d)
  d&.to_s("F")
end

def criteria_column?
  E::CaseResult.column_names.include?("criteria")
end

def metric_dump(m)
  {
    id: m.id, case_result_id: m.case_result_id, case_result_matches: m.case_result.id == m.case_result_id,
    position: m.position, name: m.name, threshold: m.threshold, score: m.score, passed: m.passed,
    reason: m.reason, error_details: m.error_details,
    created_at: time_text(m.created_at), updated_at: time_text(m.updated_at)
  }
end

# What Ruby sees of each stored action: the class of its arguments and
# whether it has a group key, as the gem's own actions have (nil when the
# group is unknown).
def action_shapes(actions)
  return nil unless actions.is_a?(Array)
  actions.map do |a|
    next { action_class: a.class.name } unless a.is_a?(Hash)
    { action_class: a.class.name, arguments_class: a["arguments"].class.name, group_key: a.key?("group"), group_nil: a["group"].nil? }
  end
end

def case_dump(c)
  thresholds = criteria_column? ? c.read_attribute(:criteria) : c.minimum_scores
  {
    id: c.id, run_id: c.run_id, run_matches: c.run.id == c.run_id,
    position: c.position, case_id: c.case_id, name: c.name, status: c.status, duration_ms: c.duration_ms,
    question: c.question, expected_answer: c.expected_answer, expected_actions: c.expected_actions,
    minimum_scores: thresholds, metadata: c.metadata, output: c.output,
    actions: c.actions, actions_is_nil: c.actions.nil?,
    response_metadata: c.response_metadata, error_details: c.error_details,
    input_tokens: c.input_tokens, output_tokens: c.output_tokens, cost: decimal_text(c.cost),
    created_at: time_text(c.created_at), updated_at: time_text(c.updated_at),
    metrics: c.metric_results.map { |m| metric_dump(m) }
  }
end

def readonly_enforced?(record)
  %i[update destroy].all? do |op|
    begin
      op == :update ? record.update!(updated_at: Time.now) : record.destroy
      false
    rescue ActiveRecord::ReadOnlyRecord
      true
    end
  end
end

def run_dump(r)
  {
    id: r.id, sequence: r.sequence, suite: r.suite, agent: r.agent, version: r.version,
    suite_digest: r.suite_digest, status: r.status,
    started_at: time_text(r.started_at), finished_at: time_text(r.finished_at),
    metadata: r.metadata, summary: r.summary,
    created_at: time_text(r.created_at), updated_at: time_text(r.updated_at),
    readonly: r.readonly?, previous_id: r.previous&.id,
    cases: r.case_results.map { |c| case_dump(c) }
  }
end

def dump(runs)
  runs = runs.includes(case_results: { metric_results: :case_result })
  out = runs.map { |r| run_dump(r) }
  first = runs.first
  if first
    c = first.case_results.first
    m = E::MetricResult.first # the first run may hold only metrics Go did not calculate (no rows)
    out_check = [first, c, m].compact.map { |rec| readonly_enforced?(rec) }
    { runs: out, readonly_enforced: out_check.all?, records_checked: out_check.size }
  else
    { runs: out, readonly_enforced: nil, records_checked: 0 }
  end
end

def json_value(v)
  v # JSON values from the fixture are already plain Ruby values
end

def write_run(fixture_run, started_at: nil)
  legacy = criteria_column?
  attrs = fixture_run.slice("suite", "agent", "version", "suite_digest", "status", "metadata", "summary")
  attrs["id"] = fixture_run["id"] unless started_at
  attrs["started_at"] = Time.iso8601(started_at || fixture_run["started_at"])
  attrs["finished_at"] = Time.iso8601(fixture_run["finished_at"])
  attrs["case_results_attributes"] = fixture_run["cases"].map do |c|
    ca = c.slice("position", "case_id", "name", "status", "duration_ms", "question", "expected_answer",
                 "expected_actions", "metadata", "output", "actions", "response_metadata", "error_details",
                 "input_tokens", "output_tokens")
    ca[legacy ? "criteria" : "minimum_scores"] = c["minimum_scores"]
    ca["cost"] = c["cost"] && BigDecimal(c["cost"])
    ca["metric_results_attributes"] = c["metrics"].map do |m|
      m.slice("position", "name", "threshold", "score", "passed", "reason", "error_details")
    end
    ca
  end
  E::Run.create!(attrs)
end

command = ARGV.shift
case command
when "schema"
  require_relative "gem_schema"
  case (what = ARGV.shift)
  when "gem" then CreateGemStyleEvaluationTables.new.migrate(:up)
  when "gem-0.1" then CreateGemStyleEvaluationTables.new(legacy: true).migrate(:up)
  else
    load what
    CreateRubyLlmEvaluations.new.migrate(:up)
  end
  puts JSON.generate(ok: true)
when "write"
  fixture = JSON.parse(File.read(ARGV.shift))
  index = ARGV.shift
  started_at = ARGV.shift
  runs = index ? [fixture["runs"][Integer(index)]] : fixture["runs"]
  ids = runs.map { |r| write_run(r, started_at: started_at).id }
  puts JSON.generate(dump(E::Run.where(id: ids).recent))
when "dump"
  puts JSON.generate(dump(E::Run.recent))
when "write-versions"
  fixture = JSON.parse(File.read(ARGV.shift))
  run = fixture["runs"][Integer(ARGV.shift)]
  n = Integer(ARGV.shift)
  start = Time.iso8601(ARGV.shift)
  n.times do |i|
    write_run(run.merge("version" => "v#{i + 1}"), started_at: (start + i + 1).utc.iso8601(6))
  end
  puts JSON.generate(written: n)
when "action-shapes"
  puts JSON.generate(E::CaseResult.order(:id).map { |c| { case_id: c.case_id, shapes: action_shapes(c.actions) } })
when "snapshot"
  out = E::Run.recent.includes(case_results: :metric_results).map do |r|
    records = [r] + r.case_results.to_a + r.case_results.flat_map { |c| c.metric_results.to_a }
    errors = records.reject(&:valid?).map { |rec| "#{rec.class.name.split('::').last} #{rec.id}: #{rec.errors.full_messages.join(', ')}" }
    { snapshot: r.snapshot, errors: errors }
  end
  puts JSON.generate(runs: out)
when "count"
  model = { "run" => E::Run, "case" => E::CaseResult, "metric" => E::MetricResult }.fetch(ARGV.shift)
  where = JSON.parse(ARGV.shift)
  scope = model
  scope = scope.joins(:case_result) if where.key?("ruby_llm_evaluations_case_results")
  puts JSON.generate(count: scope.where(where).count)
else
  warn "unknown command #{command.inspect}"
  exit 2
end
