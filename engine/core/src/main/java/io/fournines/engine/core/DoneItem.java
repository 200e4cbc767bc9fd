package io.fournines.engine.core;

/** The last item a producer sends on a queue: it will send nothing more. */
public final class DoneItem implements ControlItem {

    public static final DoneItem DONE = new DoneItem();

    private DoneItem() {
    }

    @Override
    public String toString() {
        return "DONE";
    }
}
