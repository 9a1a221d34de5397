// The Qt 6 Widgets side of Tools/compare-qt: the scenes of our benchmarks ("Qt scene: …" in
// Benchmarks/), built with real widgets on the offscreen platform and driven through
// QTest::keyClick (press + release through QApplication::notify, the shortcut map included).
// Prints one line per scene: its name, a tab, the median microseconds per key over five runs.
#include <QApplication>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QKeyEvent>
#include <QPushButton>
#include <QShortcut>
#include <QtTest/QTest>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

// A widget that takes one key (press and release) and counts it; every other key goes on up.
class Handler : public QWidget {
public:
    explicit Handler(int key, QWidget *parent = nullptr) : QWidget(parent), key(key) {}
    int hits = 0;

protected:
    void keyPressEvent(QKeyEvent *event) override {
        if (event->key() == key) {
            ++hits;
            event->accept();
        } else {
            QWidget::keyPressEvent(event);
        }
    }
    void keyReleaseEvent(QKeyEvent *event) override {
        if (event->key() == key) event->accept(); else QWidget::keyReleaseEvent(event);
    }

private:
    int key;
};

static double measure(const std::function<void()> &click, int iterations) {
    for (int i = 0; i < iterations / 10 + 1; ++i) click();  // warm up
    std::vector<double> runs;
    for (int run = 0; run < 5; ++run) {
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < iterations; ++i) click();
        runs.push_back(double(timer.nsecsElapsed()) / 1000.0 / iterations);
    }
    std::sort(runs.begin(), runs.end());
    return runs[2];
}

static void report(const char *scene, double microseconds) {
    std::printf("%s\t%.3f\n", scene, microseconds);
    std::fflush(stdout);
}

static const Qt::KeyboardModifiers chord = Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier;

// A window (taking F9) holding a container with `count` buttons in a grid of `columns` columns.
static void grid(int count, int columns) {
    Handler window(Qt::Key_F9);
    QWidget container(&window);
    auto *layout = new QGridLayout(&container);
    std::vector<QPushButton *> buttons;
    for (int i = 0; i < count; ++i) {
        auto *button = new QPushButton(QString::number(i), &container);
        button->setFocusPolicy(Qt::StrongFocus);
        layout->addWidget(button, i / columns, i % columns);
        buttons.push_back(button);
    }
    int shortcuts = 0;
    QShortcut shortcut(QKeySequence(chord | Qt::Key_F5), &window);
    shortcut.setContext(Qt::WindowShortcut);
    QObject::connect(&shortcut, &QShortcut::activated, [&] { ++shortcuts; });
    window.show();
    window.activateWindow();
    buttons.front()->setFocus();
    QApplication::processEvents();
    const int iterations = count >= 1000 ? 20000 : 50000;
    char name[96];
    long moves = 0;
    auto counter = QObject::connect(qApp, &QApplication::focusChanged, [&] { ++moves; });
    std::snprintf(name, sizeof name, "Tab, grid of %d", count);
    report(name, measure([] { QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab); }, iterations));
    QObject::disconnect(counter);
    if (moves < 5L * iterations) std::fprintf(stderr, "compare-qt: Tab moved focus only %ld times\n", moves);
    buttons.front()->setFocus();
    std::snprintf(name, sizeof name, "window shortcut, grid of %d", count);
    report(name, measure([&] { QTest::keyClick(buttons.front(), Qt::Key_F5, chord); }, iterations));
    std::snprintf(name, sizeof name, "key bubbling two levels, grid of %d", count);
    report(name, measure([&] { QTest::keyClick(buttons.front(), Qt::Key_F9); }, iterations));
    if (shortcuts == 0 || window.hits == 0) std::fprintf(stderr, "compare-qt: a grid scene did not fire\n");
}

// A top widget (taking F8) with `depth` nested widgets below it; the deepest has focus.
static void chain(int depth) {
    Handler top(Qt::Key_F8);
    QWidget *parent = &top;
    for (int level = 0; level < depth; ++level) {
        auto *child = new QWidget(parent);
        parent = child;
    }
    parent->setFocusPolicy(Qt::StrongFocus);
    int shortcuts = 0;
    QShortcut shortcut(QKeySequence(chord | Qt::Key_F5), &top);
    shortcut.setContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(&shortcut, &QShortcut::activated, [&] { ++shortcuts; });
    top.show();
    top.activateWindow();
    parent->setFocus();
    QApplication::processEvents();
    char name[96];
    std::snprintf(name, sizeof name, "key bubbling to the top of %d ancestors", depth);
    report(name, measure([&] { QTest::keyClick(parent, Qt::Key_F8); }, 50000));
    std::snprintf(name, sizeof name, "shortcut at the top of %d ancestors", depth);
    report(name, measure([&] { QTest::keyClick(parent, Qt::Key_F5, chord); }, 50000));
    if (shortcuts == 0 || top.hits == 0) std::fprintf(stderr, "compare-qt: a chain scene did not fire\n");
}

int main(int argc, char **argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    grid(100, 10);
    grid(1000, 40);
    chain(10);
    chain(50);
    return 0;
}
