#pragma once

#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include "spindle/core/diagnostic.h"

class QLabel;
class QWidget;

namespace spindle::gui {

// Puts each diagnostic beside the field it is about. Fields register under
// the dotted path core's diagnostics use ("tasks.worker.memory"); a
// diagnostic goes to the registered path that is its longest prefix
// ("files.train.py" to "files"), or to the unplaced list.
class FieldMessages : public QObject {
  Q_OBJECT

 public:
  explicit FieldMessages(QObject* parent = nullptr);

  // A hidden message label for the field; the caller lays it out under it.
  QLabel* add(const QString& path, QWidget* field, QWidget* labelParent = nullptr);
  // Forgets every field under a path (a task page that went away).
  void removeUnder(const QString& path);

  void show(const Diagnostics& diagnostics);

  // What is shown for exactly this path ("" when nothing).
  QString messageFor(const QString& path) const;
  QWidget* field(const QString& path) const;
  // The registered path a diagnostic's field belongs to ("" when none).
  QString placeOf(const QString& diagnosticField) const;
  // Problems under a path, e.g. "tasks.worker".
  int countUnder(const QString& path) const;
  const QStringList& unplaced() const { return unplaced_; }

  static bool isUnder(const QString& field, const QString& path);

 private:
  struct Entry {
    QPointer<QWidget> field;
    QPointer<QLabel> label;
    QStringList messages;
  };
  QMap<QString, Entry> entries_;
  QStringList unplaced_;
  QStringList problemFields_;
};

}  // namespace spindle::gui
