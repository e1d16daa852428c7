#pragma once

#include <QList>
#include <QPair>
#include <QWidget>

class QTableWidget;
class QPushButton;

namespace spindle::gui {

// An editable two-column list (variables and values, or names in the
// container and sources) with buttons to add and remove rows; for files,
// also one that picks files from disk.
class KeyValueTable : public QWidget {
  Q_OBJECT

 public:
  enum class Kind { variables, files, archives };
  using Pairs = QList<QPair<QString, QString>>;

  KeyValueTable(Kind kind, QWidget* parent = nullptr);

  Pairs pairs() const;  // rows with an empty key are left out
  void setPairs(const Pairs& pairs);
  // Appends a row and starts editing its key.
  void addRow(const QString& key = {}, const QString& value = {});
  QTableWidget* table() const { return table_; }

 signals:
  void changed();

 private:
  void addFromDisk();
  void removeSelected();
  void updateButtons();

  Kind kind_;
  QTableWidget* table_;
  QPushButton* add_;
  QPushButton* browse_ = nullptr;
  QPushButton* remove_;
  bool loading_ = false;
};

}  // namespace spindle::gui
