package io.fournines.nexmark.flink;

import io.fournines.nexmark.driver.DriverCli;

/** Entry point of {@code fournines-flink.jar}: {@code java -jar fournines-flink.jar run --scenario FILE --out DIR}. */
public final class FlinkMember {

    private FlinkMember() {
    }

    public static void main(String[] args) {
        DriverCli.main(new FlinkEngine(), args);
    }
}
