package io.fournines.nexmark.query;

import java.lang.reflect.RecordComponent;
import java.util.Comparator;

/**
 * Orders records by their components in declaration order (each {@link Comparable}), and records of
 * different classes by class name; a class that is not a record but keeps a record's contract (a
 * {@link io.fournines.nexmark.model.Bid}) by its own order. The result records list window start and end first, so this is
 * window order, then key: a canonical order for output that the engine produces in parallel, in
 * no particular order.
 */
public final class RecordOrder implements Comparator<Object> {

    public static final RecordOrder INSTANCE = new RecordOrder();

    private RecordOrder() {
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int compare(Object a, Object b) {
        if (!(a instanceof Record || a instanceof Comparable) || !(b instanceof Record || b instanceof Comparable)) {
            throw new IllegalArgumentException("RecordOrder orders records and comparable objects only, got " + a.getClass() + " and " + b.getClass());
        }
        if (a.getClass() != b.getClass()) {
            return a.getClass().getName().compareTo(b.getClass().getName());
        }
        if (!(a instanceof Record)) {
            return ((Comparable) a).compareTo(b);
        }
        for (RecordComponent component : a.getClass().getRecordComponents()) {
            int c = ((Comparable) value(component, a)).compareTo(value(component, b));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static Object value(RecordComponent component, Object r) {
        try {
            return component.getAccessor().invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + r.getClass().getSimpleName() + "." + component.getName(), e);
        }
    }
}
