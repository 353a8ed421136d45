# frozen_string_literal: true

# The Rails-side verifier of outcome_test.go: an ActiveRecord model over the
# rows the agent wrote and a gem-style evaluate block, served as a worker.
# Connects to APP_DATABASE_URL (TCP) in schema APP_SCHEMA.

require "active_record"
require_relative "../../examples/rails_verifier/agentevals_verifier"

ActiveRecord::Base.establish_connection(url: ENV.fetch("APP_DATABASE_URL"),
                                        schema_search_path: ENV.fetch("APP_SCHEMA"))

class Order < ActiveRecord::Base
end

AgentevalsVerifier.evaluate :order_written do |_output, context|
  order = Order.find_by(ref: context.id)
  if order.nil?
    AgentevalsVerifier::Assessment.new(score: 0.0, reason: "no order row for #{context.id}")
  else
    ok = order.quantity == context.metadata.fetch(:quantity)
    AgentevalsVerifier::Assessment.new(score: ok ? 1.0 : 0.0,
                                       reason: "order #{order.ref}: #{order.quantity} x #{order.item}")
  end
end

AgentevalsVerifier.serve
