package io.fournines.nexmark.jet;

import io.fournines.nexmark.driver.DriverCli;

/** Entry point of {@code fournines-jet.jar}: {@code java -jar fournines-jet.jar run --scenario FILE --out DIR}. */
public final class JetMember {

    private JetMember() {
    }

    public static void main(String[] args) {
        DriverCli.main(new JetEngine(), args);
    }
}
