# frozen_string_literal: true

# A verifier for evalrun that runs inside a Rails application, so the
# custom evaluators written for ruby_llm-agent-evaluations keep their
# `evaluate :name do |output, context| ... end` blocks and read the
# application's models. Load it from a script run with `bin/rails runner`
# (the app's models are loaded), declare the blocks, then call serve:
#
#   require_relative "agentevals_verifier"
#   AgentevalsVerifier.evaluate :refund_issued do |output, context|
#     Refund.exists?(order_id: context.metadata.fetch(:order_id))
#   end
#   AgentevalsVerifier.serve
#
# serve is a worker: it reads one JSON document per line on stdin (the
# case evalrun sends a verifier) and writes one verdict per line, so the
# app boots once per run. The block named like the suite's check is called
# with the agent's output and a context shaped like the gem's (id, name,
# question, expected_answer, expected_actions, metadata with symbol keys,
# question_data, response), and may return what the gem accepted: true or
# false, a score in [0, 1], or an Assessment.

require "json"

module AgentevalsVerifier
  Assessment = Struct.new(:score, :reason, keyword_init: true)
  Response = Struct.new(:output, :actions, keyword_init: true)
  Context = Struct.new(:id, :name, :question, :expected_answer, :expected_actions,
                       :metadata, :question_data, :response, :run_id, :transcript,
                       keyword_init: true)

  @evaluators = {}

  class << self
    # Declares the block that scores the suite's check called name.
    def evaluate(name, &block)
      raise ArgumentError, "evaluate :#{name} needs a block" unless block

      @evaluators[name.to_s] = block
    end

    # Answers every line of input with a verdict line on output.
    def serve(input = $stdin, output = $stdout)
      input.each_line do |line|
        output.puts(JSON.generate(verdict(JSON.parse(line))))
        output.flush
      end
    end

    # The verdict of the block named by the document's "check". An unknown
    # check or a block that raises is an error, never a pass: the exception
    # ends the worker and evalrun records the metric as errored.
    def verdict(doc)
      name = doc.fetch("check")
      block = @evaluators.fetch(name) do
        raise KeyError, "no evaluate :#{name} block (declared: #{@evaluators.keys.join(', ')})"
      end
      to_verdict(name, block.call(doc["output"], context(doc)))
    end

    private

    def context(doc)
      question = doc["question"]
      Context.new(id: doc["case_id"], name: doc["name"], run_id: doc["run_id"],
                  question: question.is_a?(String) ? question : JSON.generate(question),
                  question_data: question, expected_answer: doc["expected_answer"],
                  expected_actions: doc["expected_actions"],
                  metadata: symbolize(doc["metadata"] || {}),
                  response: Response.new(output: doc["output"], actions: doc["actions"]),
                  transcript: doc["transcript"])
    end

    def symbolize(value)
      case value
      when Hash then value.each_with_object({}) { |(k, v), h| h[k.to_sym] = symbolize(v) }
      when Array then value.map { |v| symbolize(v) }
      else value
      end
    end

    def to_verdict(name, result)
      case result
      when true, false
        { passed: result, reason: "evaluate :#{name} returned #{result}" }
      when Numeric
        { score: result.to_f, reason: "evaluate :#{name} returned #{result}" }
      when Assessment
        { score: result.score.to_f, reason: result.reason.to_s.empty? ? "evaluate :#{name}" : result.reason.to_s }
      else
        raise TypeError, "evaluate :#{name} returned #{result.inspect}: want true, false, a score in [0, 1] or an Assessment"
      end
    end
  end
end
