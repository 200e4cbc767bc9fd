package io.fournines.engine.pipeline;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class HashJoinTest extends TestEngines {

    record Order(int id, int customer) {
    }

    record Customer(int id, String name) {
    }

    private final List<Order> orders = IntStream.range(0, 10_000).mapToObj(i -> new Order(i, i % 13)).toList();
    // Customers 0..9 exist, customer 5 twice; 10, 11 and 12 have none.
    private final List<Customer> customers = new ArrayList<>(IntStream.range(0, 10).mapToObj(i -> new Customer(i, "c" + i)).toList());

    {
        customers.add(new Customer(5, "c5-again"));
    }

    private List<String> expected(boolean inner) {
        List<String> out = new ArrayList<>();
        for (Order o : orders) {
            List<Customer> matches = customers.stream().filter(c -> c.id() == o.customer()).toList();
            if (matches.isEmpty() && !inner) {
                out.add(o.id() + ":null");
            }
            matches.forEach(c -> out.add(o.id() + ":" + c.name()));
        }
        return out;
    }

    @Test
    void streamJoinsBatchSideAsAnOuterJoin() {
        List<String> results = new ArrayList<>();
        Pipeline p = Pipeline.create();
        BatchStage<Customer> build = p.readFrom(Sources.list(customers));
        p.readFrom(Sources.boundedStream(orders))
         .withoutTimestamps()
         .hashJoin(build, JoinClause.onKeys(Order::customer, Customer::id), (o, c) -> o.id() + ":" + (c == null ? "null" : c.name()))
         .writeTo(Sinks.list(results));
        engine.newJob(p).join();
        assertThat(results).containsExactlyInAnyOrderElementsOf(expected(false));
    }

    @Test
    void innerJoinDropsUnmatchedItems() {
        List<String> results = new ArrayList<>();
        Pipeline p = Pipeline.create();
        BatchStage<Customer> build = p.readFrom(Sources.list(customers));
        p.readFrom(Sources.list(orders))
         .innerHashJoin(build, JoinClause.onKeys(Order::customer, Customer::id), (o, c) -> o.id() + ":" + c.name())
         .writeTo(Sinks.list(results));
        engine.newJob(p).join();
        assertThat(results).containsExactlyInAnyOrderElementsOf(expected(true));
    }
}
